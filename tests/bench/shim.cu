// The GEMM and attention samples' launchers behind a C interface, for tests/bench/same_method.py:
// it times them with the peers' own method (triton.testing.do_bench, through ctypes) in the same
// process as cuBLAS, so that a difference between the two benchmarks' methods cannot pass for a
// difference between the kernels.
#include "attention.h"
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

// Attention forward, the sample's configurations as the benchmark times them (D = 128: 128x128
// blocks, 3 stages; D = 64: 128x256, 2 stages); q, k, v, o are [heads][s][d], contiguous.
extern "C" int tilecc_shim_attention(int d, int causal, const void* q, const void* k, const void* v, void* o, int s, int heads,
                                     float scale, void* stream) {
  const dim3 grid(s / 128, heads);
  auto run = [&](auto launch) {
    return static_cast<int>(launch(grid, static_cast<cudaStream_t>(stream), static_cast<const __half*>(q),
                                   static_cast<const __half*>(k), static_cast<const __half*>(v), static_cast<__half*>(o), s,
                                   scale, static_cast<int64_t>(s) * d, d));
  };
  if (d == 128) return causal ? run(launch_attention_128_128_128_true_3) : run(launch_attention_128_128_128_false_3);
  if (d == 64) return causal ? run(launch_attention_128_256_64_true_2) : run(launch_attention_128_256_64_false_2);
  return static_cast<int>(cudaErrorInvalidValue);
}
