// Hand shim (tests/bench/results/2026-11-27-h100-cluster-multicast.txt section 5): the 256x128
// instantiations behind gemm_ab.py's interface (wide = 1).
#include "matmul.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
namespace {
template <class T, class L>
int gemm(L launch, const void* a, const void* b, void* c, int s, void* stream) {
  const dim3 grid((s / 256) * (s / 128));
  return static_cast<int>(launch(grid, static_cast<cudaStream_t>(stream), static_cast<const T*>(a), static_cast<const T*>(b),
                                 static_cast<T*>(c), nullptr, s, s, s, s, s, s));
}
}  // namespace
extern "C" int tilecc_shim_gemm(int bf16, int, const void* a, const void* b, void* c, int s, void* stream) {
  if (bf16) return gemm<__nv_bfloat16>(launch_matmul_bfloat16_256_128_64_8_false_none, a, b, c, s, stream);
  return gemm<__half>(launch_matmul_half_256_128_64_8_false_none, a, b, c, s, stream);
}
