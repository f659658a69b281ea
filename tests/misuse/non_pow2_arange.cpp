// Misuse: arange of a non-power-of-two length
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = arange<100>();  // expect-error: tile_extents_are_powers_of_two
}
