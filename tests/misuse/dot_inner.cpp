// Misuse: dot whose inner extents differ
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto c = dot(zeros<half, 16, 32>(), zeros<half, 16, 16>());  // expect-error: dot_inner_extents_match
}
