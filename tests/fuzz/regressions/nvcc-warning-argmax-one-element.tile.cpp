// tilecc fuzz finding: nvcc-warning-argmax-one-element.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #550-D: variable "_" was set but never used
// argmax along an axis of one element compares nothing: the values it loaded were never read.
// Found by tests/fuzz/fuzz.py (campaign seed 2, file 238453514673725), reduced by hand.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL(num_warps = 1)
void k(const uint8_t* x, int* out) {
  store(out + program_id(0), argmax<0>(load(x + program_id(0) + arange<1>())));
}
