// tilecc fuzz finding: internal-error-nested-constant-if.tile.cpp
// Class: internal error (exit 3): "verifier: operand used before its definition"
// A constant condition whose arm holds another constant conditional (arms with calls lower to
// ifs): inlining the outer if replaced its result by the inner if's result, which was itself
// inlined away. Found by tests/fuzz/fuzz.py (campaign seed 2, file 185352205797229), reduced by hand.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
inline tile<float, 32> twice(tile<float, 32> a) { return a * 2.0f; }
inline tile<float, 32> pick(tile<float, 32> a) { return maximum(a, true ? (false ? twice(a) : twice(twice(a))) : twice(a)); }
TILECC_KERNEL(num_warps = 1)
void k(const float* x, float* y) {
  store(y + arange<32>(), pick(load(x + arange<32>())));
}
