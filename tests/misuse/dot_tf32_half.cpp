// Misuse: tf32 precision on half inputs
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto c = dot<precision::tf32>(zeros<half, 16, 16>(), zeros<half, 16, 16>());  // expect-error: dot_precision_fits
}
