#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL(num_warps = 4)
void k(const float* x, float* y) {
  auto i = arange<1024>();
  auto v = with_layout<compose<spatial<2>, spatial<32>, repeat<16>>>(load(x + i));  // HERE
  store(y + i, v);
}
