// Misuse: a tile extent that is not a power of two
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = zeros<float, 3>();  // expect-error: tile_extents_are_powers_of_two
}
