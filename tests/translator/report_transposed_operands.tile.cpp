// Argument specialisation for transposed dot operands: besides the variant for row-major data
// (each operand's inner stride == 1), a variant per dot operand whose unit stride can lie
// along its other axis (A column-major: stride_am == 1; B column-major, as a weight W[N][K] read
// as Wᵀ: stride_bk == 1), each with 16-byte accesses where the general kernel moves one element.
// The launcher tries them in this order, then the general kernel (both operands transposed).
// ARGS: --emit=report -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4, num_stages = 2)
void views_gemm(const half* a, const half* b, half* c, int M, int N, int K, int64_t sam, int64_t sak, int64_t sbk,
                int64_t sbn, int64_t scm) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto rk = k + arange<32>();
    auto x = load(a + cast<int64_t>(col(rm)) * sam + cast<int64_t>(row(rk)) * sak, (col(rm) < M) & row(rk < K), 0.0f);
    auto w = load(b + cast<int64_t>(col(rk)) * sbk + cast<int64_t>(row(rn)) * sbn, col(rk < K) & (row(rn) < N), 0.0f);
    acc = dot(x, w, acc);
  }
  store(c + cast<int64_t>(col(rm)) * scm + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}
// CHECK-LABEL: kernel views_gemm (views_gemm)
// CHECK: load at line 18: 1 x f16 = 2 bytes per access
// CHECK-NEXT: load at line 19: 1 x f16 = 2 bytes per access
// CHECK-LABEL: kernel views_gemm_sbk_1_aligned (views_gemm)
// CHECK-NEXT: variant: when a is aligned to 16, b is aligned to 16, c is aligned to 16, N is a multiple of 8, K is a multiple of 8, sam is a multiple of 8, sak == 1, sbk == 1, sbn is a multiple of 8, scm is a multiple of 8
// CHECK: load at line 18: 8 x f16 = 16 bytes per access
// CHECK-NEXT: load at line 19: 8 x f16 = 16 bytes per access
// CHECK-LABEL: kernel views_gemm_sam_1_aligned (views_gemm)
// CHECK-NEXT: variant: when a is aligned to 16, b is aligned to 16, c is aligned to 16, M is a multiple of 8, N is a multiple of 8, sam == 1, sak is a multiple of 8, sbk is a multiple of 8, sbn == 1, scm is a multiple of 8
// CHECK: load at line 18: 8 x f16 = 16 bytes per access, copied to shared memory ahead by cp.async
// CHECK-NEXT: load at line 19: 8 x f16 = 16 bytes per access, copied to shared memory ahead by cp.async
// A column-major lies in shared memory as [K][M] (as it lies: cp.async), read by ldmatrix.trans:
// CHECK: x_ring at 0, {{[0-9]+}} bytes ([32][64] f16
// CHECK: dot at line 20: mma.sync, A M-major (ldmatrix.trans)
// CHECK-LABEL: kernel views_gemm_aligned (views_gemm)
// CHECK-NEXT: variant: when a is aligned to 16, b is aligned to 16, c is aligned to 16, N is a multiple of 8, K is a multiple of 8, sam is a multiple of 8, sak == 1, sbk is a multiple of 8, sbn == 1, scm is a multiple of 8
