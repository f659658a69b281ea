// With sm_80 and sm_90a in --arch, a kernel only sm_90a has room for is an error that says so.
// ARGS: --arch sm_80,sm_90a -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
// DIAG: diag_shared_limit_both.tile.cpp:[[@LINE+1]]:6: error: kernel 'big' needs 172032 bytes (168 KB) of shared memory on sm_80, which allows 166912 (163 KB); use smaller tiles or fewer num_stages, or leave sm_80 out of --arch (sm_90a would have enough)
void big(const half* a, const half* b, float* c) {
  auto m = arange<256>();
  auto k = arange<256>();
  auto n = arange<64>();
  auto x = load(a + col(m) * 256 + row(k));
  auto y = load(b + col(k) * 64 + row(n));
  store(c + col(m) * 64 + row(n), dot(x, y));
}
