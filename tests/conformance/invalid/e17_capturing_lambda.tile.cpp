#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* y, float s) {
  auto v = load(x + arange<64>());
  store(y + arange<64>(), scan(v, [s](float a, float b) { return a + b * s; }));  // HERE
}
