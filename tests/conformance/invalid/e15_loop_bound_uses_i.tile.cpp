#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y, int n) {
  for (int i = 1; i < n; i += i) {  // HERE
    store(y + i + arange<64>(), 1.0f);
  }
}
