// tilecc fuzz finding: nvcc-warning-reduce-unsigned.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #186-D: pointless comparison of unsigned integer with zero
// Command: tilecc nvcc-warning-reduce-unsigned.tile.cpp -o out.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c out.cu
// Observed:
//   k.cu(31): error #186-D: pointless comparison of unsigned integer with zero
//           a[reg] = (a[reg] < uint8_t(0) ? a[reg] : uint8_t(0));
//   Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
//   1 error detected in the compilation of "k.cu".
// Found by tests/fuzz/fuzz.py (campaign seed 7, file 103029203947869, generator v1); minimised by tests/fuzz/minimize.py.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k2() {
  tile<uint8_t, 8, 32> a = min<1>(zeros<uint8_t, 8, 32, 32>());
  for (int b = 1; b != 4; b++) {
    a |= full<uint8_t, 8, 1>(1);
  }
}
