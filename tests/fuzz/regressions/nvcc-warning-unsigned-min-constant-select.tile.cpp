// tilecc fuzz finding: nvcc-warning-unsigned-min-constant-select.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #186-D: pointless comparison of unsigned integer with zero
// Command: tilecc nvcc-warning-unsigned-min-constant-select.tile.cpp -o out.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c out.cu
// Observed (GPU batch seed 51, 2026-11-27, kernel b057_k5):
//   b057.cu(1621): error #186-D: pointless comparison of unsigned integer with zero
//     const unsigned acc10_sel = true ? 0u : 144u;
//     const unsigned acc10_min = (acc10_max < acc10_sel ? acc10_max : acc10_sel);
// A select with a constant condition stayed a select, so min(u, 0) was not seen as 0 (nvcc's
// front end folds the select and then warns); canonicalize now takes the chosen operand.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void k(const unsigned* in0, unsigned* out) {
  const auto v = std::min(std::max(load(in0), cast<unsigned>(cast<int8_t>(31))), (cast<bool>(cast<int8_t>(34)) ? (unsigned)(false) : 144u));
  store(out + program_id(0), v);
}
