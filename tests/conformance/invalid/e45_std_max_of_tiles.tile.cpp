// std::max on two tiles instead of maximum.
#include <algorithm>
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, const float* y, float* out) {
  auto offs = arange<128>();
  auto m = std::max(load(x + offs), load(y + offs));  // HERE
  store(out + offs, m);
}
