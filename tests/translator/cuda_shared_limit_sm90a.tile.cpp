// The kernel of diag_shared_limit_sm80.tile.cpp, for sm_90a alone: 168 KB of shared memory is
// within an sm_90a block's 227 KB, so it translates, with dynamic shared memory the launcher
// opts into. With sm_80 beside it in --arch, the error says sm_90a alone would do. On mma.sync
// (--no-wgmma) as there: wgmma's unpadded swizzled operands need 160 KB.
// ARGS: --arch sm_90a --no-wgmma -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK: // Shared memory: 172032 bytes (dynamic)
// CHECK: extern __shared__ __align__(16) unsigned char smem[];  // 172032 bytes, set by the launcher
// CHECK: cudaFuncSetAttribute(::tilecc_kernels::big, cudaFuncAttributeMaxDynamicSharedMemorySize, 172032)
TILECC_KERNEL()
void big(const half* a, const half* b, float* c) {
  auto m = arange<256>();
  auto k = arange<256>();
  auto n = arange<64>();
  auto x = load(a + col(m) * 256 + row(k));
  auto y = load(b + col(k) * 64 + row(n));
  store(c + col(m) * 64 + row(n), dot(x, y));
}
