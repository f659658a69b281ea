// Python-ism: tl.sum(x, axis=1) written as sum(x, 1).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out) {
  auto v = load(x + col(arange<16>()) * 16 + row(arange<16>()));
  auto s = sum(v, 1);  // HERE
  store(out + arange<16>(), s);
}
