// A kernel the CUDA backend cannot print: its dot stages more shared memory than a block may
// have. A located error naming the kernel and the sizes; no output.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
// DIAG: diag_backend.tile.cpp:[[@LINE+1]]:6: error: kernel mm needs 272384 bytes of shared memory; the limit is 232448
void mm(const half* a, const half* b, float* c) {
  auto i = arange<512>();
  auto k = arange<128>();
  auto x = load(a + col(i) * 128 + row(k));
  auto y = load(b + col(k) * 512 + row(i));
  store(c + col(i) * 512 + row(i), dot(x, y));
}
