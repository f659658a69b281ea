#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* y) {
  auto v = load(x + arange<64>());
  store(y, v.data[3]);  // HERE
}
