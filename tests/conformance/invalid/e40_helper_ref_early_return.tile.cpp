// An in-out helper (like _attn_fwd_inner) that returns early.
#include <tilecc/tile.hpp>
using namespace tilecc;
void update(tile<float, 64>& acc, const float* p, int n) {
  if (n == 0) return;  // HERE
  acc += load(p + arange<64>(), arange<64>() < n, 0.0f);
}
TILECC_KERNEL()
void k(const float* x, float* out, int n) {
  auto acc = zeros<float, 64>();
  update(acc, x, n);
  store(out + arange<64>(), acc);
}
