// Misuse: a task mapping whose extents are not the tile's
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = with_layout<compose<spatial<4, 8>, repeat<1, 2>>>(zeros<float, 8, 8>());  // expect-error: layout_matches_shape
}
