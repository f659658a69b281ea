#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* y) {
  auto v = load(x + arange<64>());
  if (v > 0.0f) store(y + arange<64>(), v);  // HERE
}
