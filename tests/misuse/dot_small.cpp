// Misuse: dot with M < 16
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto c = dot(zeros<half, 8, 16>(), zeros<half, 16, 16>());  // expect-error: dot_extents_at_least_16
}
