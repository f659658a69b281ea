// Misuse: sum() without an axis on a rank-2 tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto s = sum(zeros<float, 4, 4>());  // expect-error: valid_reduction_axis
}
