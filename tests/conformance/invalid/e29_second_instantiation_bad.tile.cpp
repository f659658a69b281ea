#include <tilecc/tile.hpp>
using namespace tilecc;
template <int W>
TILECC_KERNEL(num_warps = W)
void k(const float* x, float* y) {
  auto v = with_layout<compose<spatial<4>, spatial<32>>>(load(x + arange<128>()));  // HERE
  store(y + arange<128>(), v);
}
template void k<4>(const float*, float*);
template void k<8>(const float*, float*);
