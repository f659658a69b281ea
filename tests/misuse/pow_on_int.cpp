// Misuse: pow of an int tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto p = pow(arange<4>(), 2.0f);  // expect-error: floating_operands
}
