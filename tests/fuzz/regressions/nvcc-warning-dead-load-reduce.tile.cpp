// tilecc fuzz finding: nvcc-warning-001.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #550-D: variable "_" was set but never used
// Command: tilecc nvcc-warning-001.tile.cpp -o out.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c out.cu
// Observed:
//   k.cu(33): error #550-D: variable "d_load" was set but never used
//         float d_load[1];
//   Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
//   k.cu(17): error #177-D: variable "L0_t0" was declared but never referenced
//       const int L0_t0 = warp * 32 + lane;
//   2 errors detected in the compilation of "k.cu".
// Found by tests/fuzz/fuzz.py (campaign seed 1, file 185554580919832, generator v1); minimised by tests/fuzz/minimize.py.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k0(int k0, const float* a) {
  const auto b = program_id(0) + 2 * (program_id(1) + 1 * program_id(2));
  if (true) {
    auto c = b * 1 + arange<1>();
    float d = max<0>(load(a + full<int, 1>(1), (c < k0), 1.0f));
  }
}
