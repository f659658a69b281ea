// Misuse: a generic lambda on int8_t that returns int
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto r = reduce(zeros<int8_t, 4>(), [](auto a, auto b) { return a + b; });  // expect-error: combine_function
}
