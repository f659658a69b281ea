// dot on wgmma (sm_90a): the accumulator in wgmma's layout (each warp 16 rows of every
// 64-row block: a repeat between warps and lanes), A and B in swizzled shared memory filled by
// cp.async at swizzled addresses, a proxy fence after the copies land and before the barrier,
// one m64nNk16 wgmma per k step and 64-row block with descriptors (K-major A; B N-major when
// given [K][N], K-major when given as trans of [N][K]), then commit and wait. A dot wgmma cannot
// take (two warps) stays on mma.sync, and its sm_90a variant, the same as sm_80's, is dropped.
// ARGS: --arch sm_80,sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- mm -> mm_sm90a ----
// CHECK: L1 = compose<spatial<4, 1>, repeat<2, 1>, spatial<8, 4>, repeat<1, 2>>
// CHECK: x_ring at 0, 49152 bytes ([128][64] f16, 128-byte rows, 128B swizzle, 3 stages of 16384 bytes)
// CHECK-NEXT: y_ring at 49152, 49152 bytes ([64][128] f16, 256-byte rows, 128B swizzle, 3 stages of 16384 bytes)
// CHECK: extern __shared__ __align__(1024) unsigned char smem_swizzled[];
// CHECK: tilecc::cp_async16(x_ring_slot + tilecc::swizzled<128, 128>(
// CHECK: tilecc::cp_async16(y_ring_slot + tilecc::swizzled<128, 64>(
// CHECK: for (int k = 0; k < K; k += 64) {
// CHECK-NEXT: tilecc::cp_async_wait<1>();
// CHECK-NEXT: tilecc::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// One descriptor per operand and batch; each k step and 64-row block adds its offset >> 4.
// CHECK: const std::uint64_t desc_a = tilecc::wgmma_desc<128>(dot_a, 16, 1024);
// CHECK-NEXT: const std::uint64_t desc_b = tilecc::wgmma_desc<128>(dot_b, 8192, 1024);
// CHECK-NEXT: tilecc::wgmma_fence();
// CHECK: "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, {{.*}}, %63}, %64, %65, p, 1, 1, 0, 1;\n}\n"
// The carried accumulator is updated in place (no register copy). d0, d1 of the fragment are row t/4, columns 2(t%4) and +1: registers 0 and 1; d2, d3 row t/4 + 8: the next run, 32 registers on.
// CHECK-NEXT: : "+f"([[ACC:acc(_[0-9]+)?]][0]), "+f"([[ACC]][1]), "+f"([[ACC]][32]), "+f"([[ACC]][33]), "+f"([[ACC]][2]),
// CHECK: : "l"(desc_a),
// CHECK-NEXT: "l"(desc_b),
// The second 64-row block: 64 rows of 128 bytes (8192 / 16) further on; its accumulators are the third and fourth runs.
// CHECK: : "+f"([[ACC]][64]), "+f"([[ACC]][65]), "+f"([[ACC]][96]), "+f"([[ACC]][97]),
// CHECK: "l"(desc_a + 512),
// The next k step: 32 bytes along A's rows, 16 rows (2048 bytes) down B.
// CHECK: "l"(desc_a + 2),
// CHECK-NEXT: "l"(desc_b + 128),
// CHECK: tilecc::wgmma_commit();
// The batch stays in flight through the next iteration: wait 1 completes the previous one,
// whose slot the next copies fill once every warp group is past it (one barrier); the loop's
// result is waited for after the loop.
// CHECK-NEXT: }
// CHECK-NEXT: tilecc::wgmma_wait<1>();
// CHECK-NEXT: __syncthreads();  // writes after the reads of wgmma
// CHECK-NOT: __syncthreads
// CHECK: tilecc::cp_async16(x_ring_slot{{_[0-9]+}} + tilecc::swizzled<128, 128>(
// CHECK-NOT: __syncthreads
// CHECK: tilecc::cp_async16(y_ring_slot{{_[0-9]+}} + tilecc::swizzled<128, 64>(
// CHECK-NEXT: tilecc::cp_async_commit();
// CHECK-NOT: wgmma_wait
// CHECK: tilecc::cp_async_wait<0>();
// CHECK: tilecc::wgmma_wait<0>();
TILECC_KERNEL(num_warps = 4, num_stages = 3)
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

// Two warp groups: each its own 64 rows of A. K of 32: 64-byte swizzle. B K-major (trans bit 0).
// CHECK-LABEL: ---- mm_nt -> mm_nt_sm90a ----
// CHECK: x_ring at 0, 16384 bytes ([128][32] bf16, 64-byte rows, 64B swizzle, 2 stages of 8192 bytes)
// CHECK-NEXT: y_ring at 16384, 8192 bytes ([64][32] bf16, 64-byte rows, 64B swizzle, 2 stages of 4096 bytes)
// CHECK: const std::uint64_t desc_a = tilecc::wgmma_desc<64>(dot_a + 4096 * (warp >> 2), 16, 512);
// CHECK-NEXT: const std::uint64_t desc_b = tilecc::wgmma_desc<64>(dot_b, 16, 512);
// CHECK: "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;\n}\n"
// CHECK: : "l"(desc_a),
// CHECK-NEXT: "l"(desc_b),
// CHECK: "l"(desc_a + 2),
// CHECK-NEXT: "l"(desc_b + 2),
TILECC_KERNEL(num_warps = 8, num_stages = 2)
void mm_nt(TILECC_ALIGNED(16) const bfloat16* a, TILECC_ALIGNED(16) const bfloat16* b, float* c, TILECC_MULTIPLE_OF(16) int K) {
  auto rm = arange<128>();
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 128, 64>();
  for (int k = 0; k < K; k += 32) {
    auto x = load(a + col(rm) * K + row(k + rk));
    auto y = load(b + col(rn) * K + row(k + rk));
    acc = dot(x, trans(y), acc);
  }
  store(c + col(rm) * 64 + row(rn), acc);
}

// CHECK-LABEL: ---- small -> small ----
// CHECK-NOT: small_sm90a
// CHECK: tilecc::mma_f16(
// CHECK-NOT: small_sm90a
TILECC_KERNEL(num_warps = 2)
void small(const half* a, const half* b, float* c) {
  auto r = arange<32>();
  store(c + col(r) * 32 + row(r), dot(load(a + col(r) * 32 + row(r)), load(b + col(r) * 32 + row(r))));
}
