// tilecc fuzz finding: nvcc-warning-002 (campaign seed 27, file 218986972933426)
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #186-D: pointless comparison of unsigned integer with zero
// Command: tilecc k.tile.cpp -o k.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c k.cu
// Observed:
//   k.cu(30): error #186-D: pointless comparison of unsigned integer with zero
//         ge[0] = load_1[0] >= shr_cvt;
// Cause: constant shifts were not folded, so `u >= (1 >> 3)` reached nvcc as a comparison of an
// unsigned value with a constant zero instead of being known true. Reduced by hand from the finding.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const uint8_t* in, bool* out) {
  store(out + arange<16>(), load(in + arange<16>()) >= (cast<int>(1u) >> 3));
}
