// Misuse: an int tile as a mask
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto v = load(cfp + arange<4>(), arange<4>());  // expect-error: mask_operand
}
