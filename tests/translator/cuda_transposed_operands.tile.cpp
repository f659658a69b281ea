// The launcher of a kernel with variants for transposed dot operands: the row-major variant
// first, then one per transposed operand (its own unit-stride check), then the general kernel,
// which takes every other view (both operands transposed, odd strides).
// ARGS: --arch sm_80 -o -
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
// CHECK: __global__ void __launch_bounds__(128) views_gemm(
// CHECK: __global__ void __launch_bounds__(128) views_gemm_sbk_1_aligned(
// CHECK: __global__ void __launch_bounds__(128) views_gemm_sam_1_aligned(
// CHECK: __global__ void __launch_bounds__(128) views_gemm_aligned(
// CHECK-LABEL: cudaError_t launch_views_gemm(
// CHECK: sak == 1 && sbk % 8 == 0 && sbn == 1 && scm % 8 == 0) {
// CHECK-NEXT: tilecc::log_launch("launch_views_gemm", "views_gemm_aligned");
// CHECK-NEXT: ::tilecc_kernels::views_gemm_aligned<<<
// CHECK: sam == 1 && sak % 8 == 0 && sbk % 8 == 0 && sbn == 1 && scm % 8 == 0) {
// CHECK-NEXT: tilecc::log_launch("launch_views_gemm", "views_gemm_sam_1_aligned");
// CHECK-NEXT: ::tilecc_kernels::views_gemm_sam_1_aligned<<<
// CHECK: sak == 1 && sbk == 1 && sbn % 8 == 0 && scm % 8 == 0) {
// CHECK-NEXT: tilecc::log_launch("launch_views_gemm", "views_gemm_sbk_1_aligned");
// CHECK-NEXT: ::tilecc_kernels::views_gemm_sbk_1_aligned<<<
// CHECK: ::tilecc_kernels::views_gemm<<<
