#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const half* a, float* c) {
  auto A = load(a + col(arange<8>()) * 16 + row(arange<16>()));
  store(c + col(arange<8>()) * 16 + row(arange<16>()), dot(A, trans(A)));  // HERE
}
