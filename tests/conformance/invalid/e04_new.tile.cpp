#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y, int n) {
  float* tmp = new float[4];  // HERE
  tmp[0] = static_cast<float>(n);
  store(y + arange<64>(), tmp[0]);
  delete[] tmp;
}
