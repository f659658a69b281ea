// tilecc fuzz finding: nvcc-error-001 of the CPU campaign of 2026-11-26 (seed 27).
// Class: generated CUDA that does not compile (name hygiene)
// Signature: nvcc error: declaration is incompatible with previous "tilecc_kernels::smem"
// Cause: a kernel that needs dynamic shared memory declares `extern __shared__ ... smem[]`, a
// name at namespace scope, and a user kernel named `smem` met it there. Its symbol is now
// smem_kernel (as for kernels named like a math function). Reduced by hand.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void big(const half* a, const half* b, float* c, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = arange<128>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto rk = k + arange<64>();
    acc = dot(load(a + col(rm) * K + row(rk)), load(b + col(rk) * 128 + row(rn)), acc);
  }
  store(c + col(rm) * 128 + row(rn), acc);
}

TILECC_KERNEL(num_warps = 1)
void smem(float* x) {
  store(x + arange<32>(), load(x + arange<32>()) + 1.0f);
}
