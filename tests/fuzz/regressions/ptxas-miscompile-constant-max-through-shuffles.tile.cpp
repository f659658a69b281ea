// tilecc fuzz finding (GPU batch seed 45, 2026-11-26, H100; kernel b182_k4).
// Class: wrong result on the GPU (both paths), from ptxas (CUDA 13.0.88), not from the CUDA text
// Observed (before the fix): `minimum(max(full<int, 32>(100)) - s, u)` gave s - 100 where the PTX
// computes `sub.s32 100, s` then `min.s32`: after folding the constant through the max's
// shuffles, ptxas (-O1 and up, sm_80 and sm_90a; -O0 is right) fused the subtraction into
// VIADDMNMX as s + (-100). Twenty lines of plain CUDA reproduce it (a constant's max through
// __shfl_xor_sync, then min(c - s, u)): tests/fuzz/results/2026-11-26-h100-gpu-batch-seed45.txt.
// Fix: canonicalize folds max/min of a splat to its value, so no shuffle of a constant remains.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror
// all-warnings); tests/translator/ir_reductions checks the fold.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 16)
void ptxas_max_shuffle(int* out) {
  auto x = minimum(max(full<int, 32>(100)) + reshape<2, 32>(arange<64>()) * (-1),
                   cast<int>(max<2>(broadcast_to<2, 32, 64>(cast<uint8_t>(arange<1>())))));
  store(out + col(arange<2>()) * 32 + row(arange<32>()), x);
}
