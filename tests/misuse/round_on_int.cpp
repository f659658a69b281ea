// Misuse: round of an int tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto r = round(arange<4>());  // expect-error: floating_tile
}
