// tilecc fuzz finding (sm_90a warp-specialisation campaign, 2026-11-25).
// Class: nvcc error on the generated CUDA (ptxas fatal)
// Signature: (C7602) Insufficient registers (128) to compile instruction
// Observed (before the fix): a 256x256 accumulator on 16 warps took wgmma m64n256, whose one
// instruction writes 128 registers per thread, while 512 threads leave each thread 128. Now
// wgmma needs the accumulator plus 32 registers to fit (the report says why not); mma.sync
// takes the dot and may spill.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 16, num_stages = 3)
void g(const half* a, const half* b, half* c, int M, int N, int K) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto rm = pid_m * 256 + arange<256>();
  auto rn = pid_n * 256 + arange<256>();
  auto rk = arange<64>();
  auto acc = zeros<float, 256, 256>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto b_tile = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}
