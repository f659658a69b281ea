// Misuse: a combine function that takes another type
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto s = scan(arange<4>(), [](float a, float b) { return a + b; });  // expect-error: combine_function
}
