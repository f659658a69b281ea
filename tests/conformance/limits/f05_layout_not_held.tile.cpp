// Contract §4 Layouts: a mapping whose task extents multiply to the tile's shape and whose thread count is
// num_warps x 32 is valid. This one (the docs' own example of a mapping the translator cannot hold) puts a
// repeat between the lanes of one dimension: [128] on 2 warps = spatial<2> x spatial<4> x repeat<2> x spatial<8>.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 2)
void layout_split_lanes(const float* x, float* y) {
  auto i = arange<128>();
  auto v = with_layout<compose<spatial<2>, spatial<4>, repeat<2>, spatial<8>>>(load(x + i));
  store(y + i, v + 1.0f);
}
