#include <tilecc/tile.hpp>
using namespace tilecc;
#include <cstdio>
TILECC_KERNEL()
void k(float* y, int n) {
  std::printf("%d\n", n);  // HERE
  store(y + arange<64>(), 1.0f);
}
