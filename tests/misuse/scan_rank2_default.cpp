// Misuse: cumsum without an axis on a rank-2 tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto s = cumsum(zeros<float, 4, 4>());  // expect-error: valid_scan_axis
}
