// Misuse: % on float tiles
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto r = zeros<float, 4>() % 2.0f;  // expect-error: integer_operands
}
