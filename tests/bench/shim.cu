// The GEMM sample's launchers behind a C interface, for tests/bench/same_method.py: it times
// them with the peers' own method (triton.testing.do_bench, through ctypes) in the same
// process as cuBLAS, so that a difference between the two benchmarks' methods cannot pass for a
// difference between the kernels.
#include "matmul.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {
template <class T, class L>
int gemm(L launch, int bn, const void* a, const void* b, void* c, int s, void* stream) {
  const dim3 grid((s / 128) * (s / bn));
  return static_cast<int>(launch(grid, static_cast<cudaStream_t>(stream), static_cast<const T*>(a), static_cast<const T*>(b),
                                 static_cast<T*>(c), nullptr, s, s, s, s, s, s));
}
}  // namespace

// C = A·B, square S x S x S, row-major; `wide`: the 128x256 tile (else 128x128). Returns the
// launch's cudaError_t.
extern "C" int tilecc_shim_gemm(int bf16, int wide, const void* a, const void* b, void* c, int s, void* stream) {
  if (bf16)
    return wide ? gemm<__nv_bfloat16>(launch_matmul_bfloat16_128_256_64_8_false_none, 256, a, b, c, s, stream)
                : gemm<__nv_bfloat16>(launch_matmul_bfloat16_128_128_64_8_false_none, 128, a, b, c, s, stream);
  return wide ? gemm<__half>(launch_matmul_half_128_256_64_8_false_none, 256, a, b, c, s, stream)
              : gemm<__half>(launch_matmul_half_128_128_64_8_false_none, 128, a, b, c, s, stream);
}
