// In a TMA variant, a loop whose operand has rows narrower than 128 bytes (BK = 32 in f16) stays
// on cp.async, as measured faster, and the report says so at both of its rings; the next loop's
// operand, with 128-byte rows, is copied by TMA.
// ARGS: --emit=report --arch sm_90a
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4, num_stages = 2)
void mlp(const half* x, const half* w1, const half* w2, half* y, int M, int K, int N) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rk = arange<32>();
  auto rh = arange<64>();
  auto h = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto xt = load(x + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto wt = load(w1 + cast<int64_t>(col(k + rk)) * 64 + row(rh), col(k + rk) < K, 0.0f);
    h = dot(xt, wt, h);
  }
  auto hh = cast<half>(maximum(h, 0.0f));
  for (int n0 = 0; n0 < N; n0 += 64) {
    auto rn = n0 + arange<64>();
    auto w = load(w2 + col(rh) * N + row(rn), row(rn) < N, 0.0f);
    store(y + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(dot(hh, w)), (col(rm) < M) & (row(rn) < N));
  }
}

// CHECK-LABEL: kernel mlp_tma (mlp)
// CHECK: xt_ring {{.*}}: ring filled by cp.async, {{.*}}; not TMA: rows of 64 bytes at line 15, where TMA measured slower than cp.async (TMA takes 128-byte rows)
// CHECK: w_ring {{.*}}: box copied by TMA at line 22
// CHECK: wt_ring {{.*}}: ring filled by cp.async, {{.*}}; not TMA: the loop's operands go by TMA together, and the load at line 15 has rows of 64 bytes

// With no loop left for TMA the TMA variant is the aligned one and is not kept; the aligned
// variant's report says why there is none.
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void bk32(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<32>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 32)
    acc = dot(load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f),
              load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f), acc);
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
// CHECK-LABEL: kernel bk32_aligned (bk32)
// CHECK-NEXT: variant:
// CHECK-NEXT: no TMA variant: rows of 64 bytes at line 41, where TMA measured slower than cp.async (TMA takes 128-byte rows)
// CHECK-NOT: kernel bk32_tma
