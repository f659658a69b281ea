// Stop scanning once a block is all below a threshold: a data-dependent break.
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out, int n) {
  float total = 0.0f;
  for (int off = 0; off < n; off += 128) {
    auto v = load(x + off + arange<128>(), off + arange<128>() < n, 0.0f);
    if (max(v) < 0.0f) break;  // HERE
    total += sum(v);
  }
  store(out, total);
}
