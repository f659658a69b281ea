// tilecc fuzz finding (GPU batch seed 55, 2026-11-27, H100; kernel b016_k7).
// Class: wrong result on the GPU (both paths), from ptxas (CUDA 13.0), not from the CUDA text.
// Observed (before the fix): an atomic_add masked by `abs(load(in27 + ...)) >= 0` ran for an
// element equal to INT_MIN, where the contract's wrapping |MIN| = MIN makes the mask false (the
// host twin skipped it). The generated `x < 0 ? tilecc::wrap_neg(x) : x` reaches the PTX as abs.s32
// (as do the xor-subtract form and abs.s32 in inline PTX), and ptxas folds `abs >= 0` to true;
// 20 lines of plain CUDA reproduce it (tests/fuzz/results/2026-11-27-h100-gpu-batch-seed55.txt).
// Fix: signed int32/int64 tile abs prints as tilecc::wrap_abs (neg, setp, selp in inline PTX).
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror
// all-warnings); gpu_features' abs_gate checks the result on both paths.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void abs_of_min(const int* a, const int64_t* b, int* hits) {
  auto i = arange<128>();
  atomic_add(hits + (i & 3), 1, abs(load(a + (i + 236) % 256)) >= 0);
  atomic_add(hits + 4 + (i & 3), 1, abs(load(b + i)) >= full<int64_t, 128>(0));
}
