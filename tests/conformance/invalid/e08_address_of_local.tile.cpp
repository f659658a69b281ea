#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y, float v) {
  float local = v;
  float* p = &local;  // HERE
  store(y + arange<64>(), *p);
}
