#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y, int n) {
  asm volatile("" ::: "memory");  // HERE
  store(y + arange<64>(), static_cast<float>(n));
}
