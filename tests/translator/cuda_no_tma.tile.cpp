// --no-tma: no `_tma` variant; the aligned sm_90a variant keeps its cp.async rings and the
// launcher encodes no descriptor.
// ARGS: --arch sm_80,sm_90a --no-tma -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- gemm -> gemm_sm90a_aligned ----
// CHECK: tilecc::cp_async16(
// CHECK-NOT: _tma
// CHECK-NOT: CUtensorMap
// CHECK-LABEL: cudaError_t launch_gemm(
// CHECK-NOT: tensor_map
// CHECK: ::tilecc_kernels::gemm_sm90a_aligned<<<

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm(const half* a, const half* b, half* c, int M, int N, int K, int64_t lda, int64_t ldb, int64_t ldc) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto x = load(a + cast<int64_t>(col(rm)) * lda + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y = load(b + cast<int64_t>(col(k + rk)) * ldb + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * ldc + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}
