// Misuse: cumsum along an axis the tile lacks
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto s = cumsum<2>(zeros<float, 4, 4>());  // expect-error: valid_scan_axis
}
