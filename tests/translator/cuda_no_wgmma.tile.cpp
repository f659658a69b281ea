// --no-wgmma keeps dot on mma.sync for sm_90a: no pass then lowers the kernel differently for
// sm_90a, so the sm_80 kernel serves both architectures (no _sm90a variant, no wgmma).
// ARGS: --arch sm_80,sm_90a --no-wgmma -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- mm -> mm ----
// CHECK: 8 warps (256 threads) per program, for sm_80.
// CHECK: 16 m16n8 tiles per warp, 4 k steps of 16 (mma_f16)
// CHECK-NOT: wgmma
// CHECK-LABEL: ---- mm -> mm_aligned ----
// CHECK-NOT: wgmma
// CHECK-NOT: sm90a
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void mm(TILECC_ALIGNED(16) const half* a, TILECC_ALIGNED(16) const half* b, float* c, TILECC_MULTIPLE_OF(16) int K) {
  auto rm = arange<128>();
  auto rn = arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto x = load(a + col(rm) * K + row(k + rk), row(k + rk) < K, 0.0f);
    auto y = load(b + col(k + rk) * 128 + row(rn), col(k + rk) < K, 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * 128 + row(rn), acc);
}
