// tilecc fuzz finding: nvcc-warning-002.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #177-D: variable "_" was declared but never referenced
// Command: tilecc nvcc-warning-002.tile.cpp -o out.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c out.cu
// Observed:
//   k.cu(14): error #177-D: variable "b" was declared but never referenced
//       const int64_t b = *b_ptr;
//   Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
//   1 error detected in the compilation of "k.cu".
// Found by tests/fuzz/fuzz.py (campaign seed 1, file 258458508410149, generator v1); minimised by tests/fuzz/minimize.py.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k0(const int64_t* a) {
  const int64_t b = load(a + 1);
}
