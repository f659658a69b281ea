#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y, int n) {
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 1) continue;  // HERE
    store(y + i * 64 + arange<64>(), 1.0f);
  }
}
