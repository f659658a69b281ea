// tilecc fuzz finding (sm_90a warp-specialisation campaign, 2026-11-25), reduced by hand.
// Class: nvcc error on the generated CUDA
// Signature: namespace "tilecc" has no member "tma_load_4d"
// Observed (before the fix): two `program_id(i) * stride` offsets make two outer descriptor
// axes (a 4-D box), and the runtime defined TMA copies of 2 and 3 axes only.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 8, num_stages = 2)
void gemm4d(const half* a, const half* b, float* c, int M, int K, int64_t lda, int64_t s1, int64_t s2) {
  const int64_t off = program_id(1) * s1 + program_id(2) * s2;
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = arange<64>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 64>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + off + cast<int64_t>(col(rm)) * lda + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto b_tile = load(b + cast<int64_t>(col(k + rk)) * 64 + row(rn), col(k + rk) < K, 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(c + col(rm) * 64 + row(rn), acc, col(rm) < M);
}
