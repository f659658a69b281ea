// Misuse: reducing an axis the tile lacks
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto s = sum<2>(zeros<float, 4, 4>());  // expect-error: valid_reduction_axis
}
