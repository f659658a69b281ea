// tilecc fuzz finding: nvcc-warning-unreachable-loop-float-compare.tile.cpp
// Class: nvcc warning under -Werror all-warnings: "#128-D: loop is not reachable"
// An early return under a condition that folds to a comparison of two f32 constants (here the
// minimum of a constant tile, divided by one, == 0): the translator printed `0.0f == 0.0f` and
// the code after the return; nvcc's front end folded it and called the loop behind it
// unreachable. f32 comparisons of constants now fold (Canonicalize), so the if is inlined and
// the code after the return dropped. Found by tests/fuzz/fuzz.py (campaign seed 61, file
// 249748366041619), reduced by hand.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL(num_warps = 4)
void early(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) {
    if (min(full<float, 2>(0.0f)) / 1.0f == 0.0f) {
      return;
    }
    for (int j = 0; j < 3; j += 3) {
      store(y + i * 128 + arange<128>(), load(x + arange<128>()));
    }
  }
}
