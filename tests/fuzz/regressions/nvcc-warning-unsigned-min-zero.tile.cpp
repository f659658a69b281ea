// tilecc fuzz finding: nvcc-warning-004.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #186-D: pointless comparison of unsigned integer with zero
// Command: tilecc nvcc-warning-004.tile.cpp -o out.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c out.cu
// Observed:
//   k.cu(18): error #186-D: pointless comparison of unsigned integer with zero
//         a_1[0] = (a[0] < 0u ? a[0] : 0u);
//   Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
//   1 error detected in the compilation of "k.cu".
// Found by tests/fuzz/fuzz.py (campaign seed 1, file 243511317274925, generator v1); minimised by tests/fuzz/minimize.py.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k2() {
  auto a = full<unsigned, 1>(1);
  for (int b = 1; b >= 0; b += -1) {
    a = minimum(a, zeros<unsigned, 1>());
  }
}
