// tilecc fuzz finding: nvcc-warning-unsigned-min-zero-through-shapes.tile.cpp
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #550-D: variable "store_shared" was set but never used
// Command: tilecc nvcc-warning-unsigned-min-zero-through-shapes.tile.cpp -o out.cu && nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I runtime/include -c out.cu
// Observed (GPU batch 2026-11-26, kernel b020_k5):
//   b020_k5.cu(441): error #550-D: variable "store_shared" was set but never used
// min(u, 0) on unsigned integers is 0, which the printer knew but canonicalize did not when the
// zero came through col() (an expand_dims of a splat): the reshape's shared-memory load stayed.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void k(unsigned* out) {
  store(out + col(arange<64>()), minimum(reshape<64, 1>(full<unsigned, 2, 4, 8>(16u)), col(zeros<unsigned, 64>())));
}
