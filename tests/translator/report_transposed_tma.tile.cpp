// TMA for dot operands whose unit stride runs along the tile's axis 0 (a column-major A, a
// weight W[N][K] read as Wᵀ): such a tile lies transposed in shared memory ([K][M], [N][K]), and
// the TMA box is the buffer's — the tensor's contiguous axis last — so these variants copy with
// TMA like the row-major one, in the views' variants (stride == 1 checked by the launcher) and
// for pointers whose unit stride is written out (`w + col(k) + row(n) * K`).
// ARGS: --emit=report --arch=sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void views(const half* a, const half* b, half* c, int M, int N, int K, int64_t sam, int64_t sak, int64_t sbk, int64_t sbn, int64_t scm) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto rk = k + arange<64>();
    auto x = load(a + cast<int64_t>(col(rm)) * sam + cast<int64_t>(row(rk)) * sak, (col(rm) < M) & row(rk < K), 0.0f);
    auto w = load(b + cast<int64_t>(col(rk)) * sbk + cast<int64_t>(row(rn)) * sbn, col(rk < K) & (row(rn) < N), 0.0f);
    acc = dot(x, w, acc);
  }
  store(c + cast<int64_t>(col(rm)) * scm + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}
// CHECK-LABEL: kernel views_sbk_1_tma (views)
// CHECK-NEXT: variant: when {{.*}}, sak == 1, sbk == 1,
// CHECK: x_ring at 0, 49152 bytes ([128][64] f16, 128-byte rows, 128B swizzle, 3 stages of 16384 bytes): box copied by TMA at line 17
// CHECK: w_ring at 49152, 49152 bytes ([128][64] f16, 128-byte rows, 128B swizzle, 3 stages of 16384 bytes): box copied by TMA at line 18
// CHECK-LABEL: kernel views_sam_1_tma (views)
// CHECK-NEXT: variant: when {{.*}}, sam == 1, {{.*}}, sbn == 1,
// CHECK: x_ring at 0, 49152 bytes ([64][128] f16, 256-byte rows, 128B swizzle, 3 stages of 16384 bytes): box copied by TMA at line 17
// CHECK: dot at line 19: wgmma m64n128k16, A from shared memory, M-major

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void linear(const half* x, const half* w, half* y, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto xt = load(x + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto wt = load(w + (k + col(rk)) + cast<int64_t>(row(rn)) * K, (k + col(rk) < K) & (row(rn) < N), 0.0f);  // [64][128]
    acc = dot(xt, wt, acc);
  }
  store(y + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}
// CHECK-LABEL: kernel linear_tma (linear)
// CHECK-NEXT: variant: when x is aligned to 16, w is aligned to 16, y is aligned to 16, N is a multiple of 8, K is a multiple of 8
// CHECK: wt_ring at 49152, 49152 bytes ([128][64] f16, 128-byte rows, 128B swizzle, 3 stages of 16384 bytes): box copied by TMA at line 40
