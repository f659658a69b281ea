// Misuse: pointer + float tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto p = cfp + zeros<float, 4>();  // expect-error: pointer_offset_operands
}
