#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y, int n) {
  int i = 0;
  while (i < n) {  // HERE
    store(y + i * 64 + arange<64>(), 1.0f);
    ++i;
  }
}
