// Misuse: + on bool tiles
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = (arange<4>() < 2) + (arange<4>() < 3);  // expect-error: arithmetic_operands
}
