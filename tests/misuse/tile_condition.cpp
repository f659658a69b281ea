// Misuse: a tile as a condition
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  if (arange<4>() < 2) {  // expect-error: bool
  }
}
