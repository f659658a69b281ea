// Python-ism: reductions as methods, x.sum(axis).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out) {
  auto v = load(x + col(arange<16>()) * 16 + row(arange<16>()));
  auto s = v.sum(1);  // HERE
  store(out + arange<16>(), s);
}
