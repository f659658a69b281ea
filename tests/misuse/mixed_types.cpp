// Misuse: float tile + half tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = zeros<float, 4>() + zeros<half, 4>();  // expect-error: tile_element_types_match
}
