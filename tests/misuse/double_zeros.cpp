// Misuse: zeros of double
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = zeros<double, 4>();  // expect-error: tile_element_type
}
