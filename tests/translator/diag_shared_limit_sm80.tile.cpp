// The shared-memory limit is the target's: 168 KB of dot operands fit an sm_90a block (227 KB)
// but not an sm_80 one (163 KB). cuda_shared_limit_sm90a.tile.cpp translates the same kernel
// for sm_90a.
// ARGS: --arch sm_80 -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
// DIAG: diag_shared_limit_sm80.tile.cpp:[[@LINE+2]]:6: error: kernel 'big' needs 172032 bytes (168 KB) of shared memory on sm_80, which allows 166912 (163 KB); use smaller tiles or fewer num_stages
// DIAG-NOT: error
void big(const half* a, const half* b, float* c) {
  auto m = arange<256>();
  auto k = arange<256>();
  auto n = arange<64>();
  auto x = load(a + col(m) * 256 + row(k));
  auto y = load(b + col(k) * 64 + row(n));
  store(c + col(m) * 64 + row(n), dot(x, y));
}
