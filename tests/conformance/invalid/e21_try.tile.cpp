#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y) {
  try {  // HERE
    store(y + arange<64>(), 1.0f);
  } catch (...) {
  }
}
