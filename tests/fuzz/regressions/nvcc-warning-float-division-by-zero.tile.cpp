// tilecc fuzz finding: nvcc-warning-float-division-by-zero.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #39-D: division by zero
// x / 0.0f is IEEE division (±inf or NaN, as in the host twin), which nvcc warns about when the
// divisor is a literal. Found by tests/fuzz/fuzz.py (campaign seed 2), reduced by hand.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL(num_warps = 1)
void k(const float* x, float* y, float s) {
  store(y + arange<32>(), load(x + arange<32>()) / 0.0f);
  store(y + 32, s / -0.0f);
}
