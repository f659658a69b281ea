// tilecc fuzz finding: nvcc-warning-negated-int-min.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #61-D: integer operation result is out of range
// Negating a tile of INT_MIN was printed `-(-2147483647 - 1)`: signed overflow, which the
// contract defines (tiles wrap) and C++ does not. Signed tile arithmetic is printed through
// tilecc::wrap_* now (the class of the seed-30 GPU batch's miscompile b004_k3 too).
// Found by tests/fuzz/fuzz.py (campaign seed 29, file 233958197074490), reduced by hand.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL(num_warps = 1)
void k(int* out, int64_t* out64) {
  store(out + arange<1>(), -full<int, 1>(-2147483647 - 1));
  store(out + 1 + arange<32>(), full<int, 32>(2147483647) + 1);
  store(out64 + arange<32>(), full<int64_t, 32>(INT64_MAX) * 2);
}
