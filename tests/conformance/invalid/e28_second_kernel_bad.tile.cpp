#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL(num_warps = 4)
void good(const float* x, float* y) { store(y + arange<128>(), load(x + arange<128>())); }
TILECC_KERNEL(num_warps = 4)
void bad(const float* x, float* y) {
  auto v = with_layout<compose<spatial<2>, spatial<32>, repeat<2>>>(load(x + arange<128>()));  // HERE
  store(y + arange<128>(), v);
}
