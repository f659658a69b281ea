#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y, int n) {
  if (n < 0) throw n;  // HERE
  store(y + arange<64>(), 1.0f);
}
