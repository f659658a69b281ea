// tilecc fuzz finding: nvcc-warning-005.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #128-D: loop is not reachable
// Command: tilecc nvcc-warning-005.tile.cpp -o out.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c out.cu
// Observed:
//   k.cu(27): error #128-D: loop is not reachable
//         for (int reg = 0; reg < 4; ++reg) b[reg] = b_1[reg];
//   Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
//   1 error detected in the compilation of "k.cu".
// Found by tests/fuzz/fuzz.py (campaign seed 1, file 165714510170757, generator v1); minimised by tests/fuzz/minimize.py.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k1(int a) {
  tile<float, 4, 128> b = full<float, 4, 128>(1.0f);
  for (int64_t c = 0; c <= a - 1; c++) {
    b += full<float, 4, 128>(1.0f);
    if (true) {
      return;
    }
  }
}
