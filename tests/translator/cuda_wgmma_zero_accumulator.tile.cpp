// A dot without an accumulator (zeros) on wgmma: its registers are not zeroed first; each
// 64-row block's first k step runs with scale-d = 0 (D = A·B) and only writes them ("=f"),
// the later k steps accumulate ("+f", scale-d = 1). A carried accumulator keeps "+f" from the
// first step (cuda_wgmma).
// ARGS: --arch sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- row_dots<64, 128, 32> -> row_dots_64_128_32 ----
// CHECK: for (int n0 = 0; n0 < n; n0 += 128) {
// CHECK-NOT: [reg] = 0.0f;
// CHECK: float [[S:s(_[0-9]+)?]][64];  // tile<64x128xf32> in L{{[0-9]+}}, wgmma accumulator, written by the first k step
// CHECK-NOT: [[S]][reg] =
// CHECK: tilecc::wgmma_fence();
// CHECK-NEXT: asm volatile(
// CHECK-NEXT: "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK-NEXT: : "=f"([[S]][0]), "=f"([[S]][1]), "=f"([[S]][32]),
// CHECK: : "l"(desc_a),
// CHECK-NEXT: "l"(desc_b),
// CHECK-NEXT: "n"(0));
// CHECK-NEXT: asm volatile(
// CHECK-NEXT: "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK-NEXT: : "+f"([[S]][0]), "+f"([[S]][1]), "+f"([[S]][32]),
// CHECK: : "l"(desc_a + 2),
// CHECK-NEXT: "l"(desc_b + {{[0-9]+}}),
// CHECK-NEXT: "n"(1));
// CHECK-NOT: "=f"
// CHECK: tilecc::wgmma_commit();
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void row_dots(const half* a, const half* b, float* out, int n) {
  auto rm = arange<BM>();
  auto rn = arange<BN>();
  auto rk = arange<BK>();
  auto a_tile = load(a + (program_id(0) * BM + col(rm)) * BK + row(rk));
  auto total = zeros<float, BM>();
  for (int n0 = 0; n0 < n; n0 += BN) {
    auto b_tile = load(b + col(rk) * n + row(n0 + rn), row(n0 + rn) < n, 0.0f);
    auto s = dot(a_tile, b_tile);
    total = total + sum<1>(s);
  }
  store(out + program_id(0) * BM + rm, total);
}
template void row_dots<64, 128, 32>(const half*, const half*, float*, int);
