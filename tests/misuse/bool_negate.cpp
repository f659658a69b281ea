// Misuse: negating a bool tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto n = -(arange<4>() < 2);  // expect-error: numeric_tile
}
