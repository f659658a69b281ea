// A kernel no target can run: its dot stages more shared memory than any block may have. One
// located error naming the kernel, the need and the limit (of the target allowing most: the
// others fail as well); no output.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
// DIAG: diag_backend.tile.cpp:[[@LINE+2]]:6: error: kernel 'mm' needs 272384 bytes (266 KB) of shared memory on sm_90a, which allows 232448 (227 KB); use smaller tiles or fewer num_stages{{$}}
// DIAG-NOT: error
void mm(const half* a, const half* b, float* c) {
  auto i = arange<512>();
  auto k = arange<128>();
  auto x = load(a + col(i) * 128 + row(k));
  auto y = load(b + col(k) * 512 + row(i));
  store(c + col(i) * 512 + row(i), dot(x, y));
}
