// Misuse: a difference of pointer tiles
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto d = (fp + arange<4>()) - (fp + arange<4>());  // expect-error: pointer_offset_operands
}
