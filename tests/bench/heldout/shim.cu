// The held-out tutorial ports (tutorials.tile.cpp) and the samples' tuned GEMM and attention
// behind a C interface, for heldout.py: timed by the peers' method (do_bench) in one process
// with cuBLAS and cuDNN. Built by heldout.py's instructions (README.md), not by CMake.
#include "attention.h"
#include "matmul.h"
#include "tutorials.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {
int cdiv(int a, int b) { return (a + b - 1) / b; }
template <class T>
const T* in(const void* p) {
  return static_cast<const T*>(p);
}
template <class T>
T* out(void* p) {
  return static_cast<T*>(p);
}
int sms() {
  int dev = 0, n = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev);
  return n;
}
}  // namespace

// C[M][N] = A[M][K] · B[K][N], row-major. Returns the launch's cudaError_t (-1: no such variant).
extern "C" int heldout_gemm(int variant, const void* a, const void* b, void* c, int M, int N, int K, void* stream_) {
  const auto st = static_cast<cudaStream_t>(stream_);
  const dim3 g256(cdiv(M, 128) * cdiv(N, 256)), g128(cdiv(M, 128) * cdiv(N, 128)), g64x256(cdiv(M, 64) * cdiv(N, 256));
  using H = __half;
  using B = __nv_bfloat16;
  switch (variant) {
    case 0: return launch_tut_matmul_half_128_256_64_8_8_3_false(g256, st, in<H>(a), in<H>(b), out<H>(c), M, N, K, K, 1, N, 1, N, 1);
    case 1: return launch_tut_matmul_half_128_256_64_8_8_3_true(g256, st, in<H>(a), in<H>(b), out<H>(c), M, N, K, K, 1, N, 1, N, 1);
    case 2: return launch_tut_matmul_bfloat16_128_256_64_8_8_3_false(g256, st, in<B>(a), in<B>(b), out<B>(c), M, N, K, K, 1, N, 1, N, 1);
    case 3: return launch_tut_matmul_half_128_128_64_8_8_3_false(g128, st, in<H>(a), in<H>(b), out<H>(c), M, N, K, K, 1, N, 1, N, 1);
    case 4: return launch_tut_matmul_half_128_128_32_8_4_4_false(g128, st, in<H>(a), in<H>(b), out<H>(c), M, N, K, K, 1, N, 1, N, 1);
    case 5: return launch_tut_matmul_half_64_256_32_8_4_4_false(g64x256, st, in<H>(a), in<H>(b), out<H>(c), M, N, K, K, 1, N, 1, N, 1);
    case 6: return launch_tut_matmul_bp_128_256_64_8_8_3(g256, st, in<H>(a), in<H>(b), out<H>(c), M, N, K, K, 1, N, 1, N, 1);
    case 7: {
      const int tiles = cdiv(M, 128) * cdiv(N, 256);
      return launch_tut_matmul_persistent_128_256_64_8_8_3(dim3(tiles < sms() ? tiles : sms()), st, in<H>(a), in<H>(b), out<H>(c), M, N,
                                                           K, K, N, N);
    }
    case 8: return launch_matmul_half_128_256_64_8_false_none(g256, st, in<H>(a), in<H>(b), out<H>(c), nullptr, M, N, K, K, N, N);
    case 9:
      return launch_matmul_bfloat16_128_256_64_8_false_none(g256, st, in<B>(a), in<B>(b), out<B>(c), nullptr, M, N, K, K, N, N);
    default: return -1;
  }
}

// Attention forward over q, k, v, o of [Z][H][S][D] (contiguous), lse [Z*H][S] (tutorial ports
// only). Variants 0, 1: the ports as instantiated in tutorials.tile.cpp (D128: 128x128 blocks,
// then 128x64; D64: 128x128, then 128x64 with 4 warps); 2: the persistent port (128x128 blocks,
// one program per SM); 8: the sample.
extern "C" int heldout_attention(int variant, int d, int causal, const void* q, const void* k, const void* v, void* o, float* lse, int Z,
                                 int H, int S, float scale, void* stream_) {
  const auto st = static_cast<cudaStream_t>(stream_);
  const int64_t sd = d, ss = static_cast<int64_t>(S) * d, sh = ss, sz = ss * H;
  const dim3 grid(cdiv(S, 128), Z * H);
  auto port = [&](auto launch) {
    return static_cast<int>(launch(grid, st, in<__half>(q), in<__half>(k), in<__half>(v), scale, lse, out<__half>(o), sz, sh, sd, 1, sz,
                                   sh, sd, 1, sz, sh, sd, 1, sz, sh, sd, 1, H, S));
  };
  if (variant == 8) {
    auto sample = [&](auto launch) {
      return static_cast<int>(launch(grid, st, in<__half>(q), in<__half>(k), in<__half>(v), out<__half>(o), S, scale, ss, sd));
    };
    if (d == 128) return causal ? sample(launch_attention_128_128_128_true_3) : sample(launch_attention_128_128_128_false_3);
    return causal ? sample(launch_attention_128_256_64_true_2) : sample(launch_attention_128_256_64_false_2);
  }
  if (variant == 2) {
    auto persist = [&](auto launch) {
      return static_cast<int>(launch(dim3(sms()), st, in<__half>(q), in<__half>(k), in<__half>(v), scale, lse, out<__half>(o), Z, H, S));
    };
    if (d == 128) return causal ? persist(launch_tut_attn_persist_128_128_128_3_8_3) : persist(launch_tut_attn_persist_128_128_128_1_8_3);
    return causal ? persist(launch_tut_attn_persist_64_128_128_3_8_3) : persist(launch_tut_attn_persist_64_128_128_1_8_3);
  }
  if (d == 128 && variant == 0) return causal ? port(launch_tut_attn_fwd_128_128_128_3_8_3) : port(launch_tut_attn_fwd_128_128_128_1_8_3);
  if (d == 128 && variant == 1) return causal ? port(launch_tut_attn_fwd_128_128_64_3_8_3) : port(launch_tut_attn_fwd_128_128_64_1_8_3);
  if (d == 64 && variant == 0) return causal ? port(launch_tut_attn_fwd_64_128_128_3_8_3) : port(launch_tut_attn_fwd_64_128_128_1_8_3);
  if (d == 64 && variant == 1) return causal ? port(launch_tut_attn_fwd_64_128_64_3_4_3) : port(launch_tut_attn_fwd_64_128_64_1_4_3);
  return -1;
}
