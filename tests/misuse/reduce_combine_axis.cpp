// Misuse: reduce with a combine function along a missing axis
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto r = reduce<1>(arange<4>(), [](int a, int b) { return a + b; });  // expect-error: valid_reduction_axis
}
