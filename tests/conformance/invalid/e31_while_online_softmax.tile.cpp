// Triton has while loops: a user streams a row with one.
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out, int n) {
  float m = -INFINITY;
  int off = 0;
  while (off < n) {  // HERE
    auto cols = off + arange<256>();
    m = tilecc::max(m, max(load(x + cols, cols < n, -INFINITY)));
    off += 256;
  }
  store(out + program_id(0), m);
}
