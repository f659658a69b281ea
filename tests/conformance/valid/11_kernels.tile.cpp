// Kernel forms: options (num_warps 1..32, num_stages, warp_specialize, values from template params),
// every parameter type, kernels whose template lives in an included header, a kernel in a namespace.
#include <tilecc/tile.hpp>
#include "include/audit/lib.hpp"
using namespace tilecc;

template void audit::affine<float, 1024, 4>(const float*, float*, float, float, int);
template void audit::affine<half, 512, 2>(const half*, half*, float, float, int);

// Every scalar parameter type.
TILECC_KERNEL()
void params(bool flag, int i, unsigned u, int64_t l, float f, float* out, const int64_t* in) {
  auto t = arange<128>();
  auto v = cast<float>(t + i) + cast<float>(t + cast<int>(u)) + cast<float>(t + l) + f + cast<float>(load(in + t));
  store(out + t, where(flag, v, -v));
}

// num_warps from 1 to 32 (a template parameter), num_stages as a template parameter.
template <int W, int S>
TILECC_KERNEL(num_warps = W, num_stages = S)
void warps(const float* x, float* y, int n) {
  auto i = program_id(0) * 4096 + arange<4096>();
  store(y + i, load(x + i, i < n) * 3.0f, i < n);
}
template void warps<1, 1>(const float*, float*, int);
template void warps<2, 2>(const float*, float*, int);
template void warps<8, 4>(const float*, float*, int);
template void warps<16, 3>(const float*, float*, int);
template void warps<32, 1>(const float*, float*, int);

// warp_specialize explicitly true / false / from a template parameter on a GEMM loop.
template <bool WS>
TILECC_KERNEL(num_warps = 4, num_stages = 3, warp_specialize = WS)
void gemm_ws(const half* a, const half* b, half* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto A = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto B = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(A, B, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), col(rm < M) & row(rn < N));
}
template void gemm_ws<true>(const half*, const half*, half*, int, int, int);
template void gemm_ws<false>(const half*, const half*, half*, int, int, int);

TILECC_KERNEL(num_warps = 4, warp_specialize = true)
void gemm_ws_literal(const bfloat16* a, const bfloat16* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<32>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 32) {
    auto A = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto B = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(A, B, acc);
  }
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}

namespace ns {
TILECC_KERNEL(num_warps = 2)
void in_namespace(float* y) { store(y + arange<64>(), 1.0f); }
}  // namespace ns
