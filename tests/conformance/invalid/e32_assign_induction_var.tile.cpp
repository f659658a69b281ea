// Triton's attention tutorial rebinds the loop variable: start_n = tl.multiple_of(start_n, BLOCK_N).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out, int n) {
  auto acc = zeros<float, 64>();
  for (int start_n = 0; start_n < n; start_n += 64) {
    start_n = multiple_of(start_n, 64);  // HERE
    acc += load(x + start_n + arange<64>(), start_n + arange<64>() < n, 0.0f);
  }
  store(out + arange<64>(), acc);
}
