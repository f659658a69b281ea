#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y) {
  auto t = arange<4>() + arange<8>();  // HERE
  store(y + arange<8>(), cast<float>(t));
}
