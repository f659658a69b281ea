// tilecc fuzz finding: b250_k6 (GPU batch seed 26, dropped by the nvcc check)
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #550-D: variable "_" was set but never used
// Command: tilecc k.tile.cpp -o k.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c k.cu
// Observed:
//   k.cu(30): error #550-D: variable "store_add" was set but never used
// Cause: min(u, 0) on unsigned values is 0, but a zero made through trans() was not seen as a
// constant before dead-code elimination; the printer then folded the min and left its other
// operand computed and unused. Reduced by hand from the finding.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const uint8_t* in, uint8_t* out) {
  auto x = load(in + expand_dims<0>(arange<32>()));
  store(out + expand_dims<0>(arange<32>()), minimum(trans(full<uint8_t, 32, 1>(0)), x + uint8_t(1)));
}
