// min_programs_per_sm = N becomes __launch_bounds__'s second argument (ptxas keeps each thread
// within 64K / (N x threads) registers), stated in the header comment; a template parameter may
// give it. Warp specialisation, which needs its SM to itself, overrides it and says so.
// ARGS: --arch sm_80,sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- rows<6> -> rows_6 ----
// CHECK-NEXT: // 8 warps (256 threads) per program, for sm_80.
// CHECK-NEXT: // At least 6 programs per SM (min_programs_per_sm): at most 40 registers per thread.
// CHECK: __global__ void __launch_bounds__(256, 6) rows_6(
template <int P>
TILECC_KERNEL(num_warps = 8, min_programs_per_sm = P)
void rows(const float* x, float* y, int n) {
  auto cols = arange<2048>();
  auto v = load(x + program_id(0) * n + cols, cols < n, 0.0f);
  store(y + program_id(0) * n + cols, v - sum(v) / n, cols < n);
}
template void rows<6>(const float*, float*, int);

// CHECK-LABEL: ---- gemm -> gemm_sm90a_tma ----
// CHECK: // One program per SM: warp specialisation (warp_specialize = true) overrides min_programs_per_sm = 2.
// CHECK: __global__ void __launch_bounds__(384, 1) gemm_sm90a_tma(
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = true, min_programs_per_sm = 2)
void gemm(const half* a, const half* b, half* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & row(k + rk < K), 0.0f);
    auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}
