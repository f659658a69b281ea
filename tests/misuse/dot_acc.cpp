// Misuse: dot with a half accumulator
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto c = dot(zeros<half, 16, 16>(), zeros<half, 16, 16>(), zeros<half, 16, 16>());  // expect-error: dot_accumulator
}
