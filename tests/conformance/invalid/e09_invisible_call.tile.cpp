#include <tilecc/tile.hpp>
using namespace tilecc;
float opaque(float v);
TILECC_KERNEL()
void k(float* y, float v) {
  store(y + arange<64>(), opaque(v));  // HERE
}
