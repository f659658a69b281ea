#include <tilecc/tile.hpp>
using namespace tilecc;
float g_scale = 2.0f;
TILECC_KERNEL()
void k(float* y) {
  store(y + arange<64>(), g_scale);  // HERE
}
