// Misuse: an int tile as the mask of where
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto w = where(arange<4>(), 1.0f, 0.0f);  // expect-error: mask_operand
}
