// Misuse: trans of a rank-1 tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = trans(arange<4>());  // expect-error: rank_2_tile
}
