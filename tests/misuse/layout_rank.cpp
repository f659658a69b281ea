// Misuse: a rank-1 task mapping for a rank-2 tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = with_layout<spatial<32>>(zeros<float, 4, 8>());  // expect-error: layout_matches_shape
}
