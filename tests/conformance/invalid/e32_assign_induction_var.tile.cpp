// Assigning the loop variable a new value in the body (here a hint of a different value) is
// refused; Triton's `start_n = tl.multiple_of(start_n, BLOCK_N)`, which keeps the value, is
// accepted (valid/40_tut_attention.tile.cpp).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out, int n) {
  auto acc = zeros<float, 64>();
  for (int start_n = 0; start_n < n; start_n += 64) {
    start_n = multiple_of(start_n + 64, 64);  // HERE
    acc += load(x + start_n + arange<64>(), start_n + arange<64>() < n, 0.0f);
  }
  store(out + arange<64>(), acc);
}
