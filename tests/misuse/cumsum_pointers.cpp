// Misuse: cumsum of a tile of pointers
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto s = cumsum(fp + arange<4>());  // expect-error: summable_tile
}
