// Misuse: a combine function that captures
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  int k = 2;
  auto r = reduce(arange<4>(), [k](int a, int b) { return a + b * k; });  // expect-error: combine_function
}
