// Misuse: pointer arithmetic on double*
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  double d[4] = {};
  auto v = load(d + arange<4>());  // expect-error: pointer_element
}
