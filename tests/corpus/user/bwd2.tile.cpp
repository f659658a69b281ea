// Backward passes (uk2 probe set).
#include <tilecc/tile.hpp>
using namespace tilecc;

// 1. softmax backward: dx = y * (dy - sum(dy * y)) per row.
template <int BLOCK>
TILECC_KERNEL(num_warps = BLOCK >= 1024 ? 8 : 4)
void softmax_bwd(const float* y, const float* dy, float* dx, int n, int64_t stride) {
  const int64_t r = program_id(0);
  auto offs = arange<BLOCK>();
  auto m = offs < n;
  auto yv = load(y + r * stride + offs, m, 0.0f);
  auto g = load(dy + r * stride + offs, m, 0.0f);
  const float s = sum(yv * g);
  store(dx + r * stride + offs, yv * (g - s), m);
}
template void softmax_bwd<1024>(const float*, const float*, float*, int, int64_t);
template void softmax_bwd<128>(const float*, const float*, float*, int, int64_t);

// 2. layernorm backward: dx per row; dgamma/dbeta partial sums with float atomics.
template <class T, int BLOCK>
TILECC_KERNEL(num_warps = 8)
void layernorm_bwd(const T* x, const T* dy, const T* w, const float* mean, const float* rstd, T* dx, float* dw,
                   float* db, int N, int64_t stride) {
  const int64_t r = program_id(0);
  auto c = arange<BLOCK>();
  auto m = c < N;
  auto xv = cast<float>(load(x + r * stride + c, m, 0.0f));
  auto g = cast<float>(load(dy + r * stride + c, m, 0.0f));
  auto wv = cast<float>(load(w + c, m, 0.0f));
  const float mu = load(mean + r), rs = load(rstd + r);
  auto xhat = where(m, (xv - mu) * rs, 0.0f);
  auto wdy = wv * g;
  const float c1 = sum(xhat * wdy) / N;
  const float c2 = sum(wdy) / N;
  auto d = (wdy - (xhat * c1 + c2)) * rs;
  store(dx + r * stride + c, cast<T>(d), m);
  atomic_add(dw + c, g * xhat, m);
  atomic_add(db + c, g, m);
}
template void layernorm_bwd<half, 1024>(const half*, const half*, const half*, const float*, const float*, half*,
                                        float*, float*, int, int64_t);
template void layernorm_bwd<float, 256>(const float*, const float*, const float*, const float*, const float*, float*,
                                        float*, float*, int, int64_t);

// 3. GELU (erf form) backward over a flat tensor, grid-stride loop with 64-bit offsets.
template <class T, int BLOCK>
TILECC_KERNEL(num_warps = 4)
void gelu_bwd(const T* x, const T* dy, T* dx, int64_t n) {
  const int64_t step = int64_t(num_programs(0)) * BLOCK;
  for (int64_t start = int64_t(program_id(0)) * BLOCK; start < n; start += step) {
    auto offs = start + arange<BLOCK>();
    auto m = offs < n;
    auto xv = cast<float>(load(x + offs, m, 0.0f));
    auto g = cast<float>(load(dy + offs, m, 0.0f));
    auto cdf = 0.5f * (1.0f + erf(xv * 0.70710678f));
    auto pdf = exp(-0.5f * xv * xv) * 0.39894228f;
    store(dx + offs, cast<T>(g * (cdf + xv * pdf)), m);
  }
}
template void gelu_bwd<bfloat16, 1024>(const bfloat16*, const bfloat16*, bfloat16*, int64_t);
template void gelu_bwd<float, 512>(const float*, const float*, float*, int64_t);

// 4. Linear backward, weight gradient: dW[K, N] = Xᵀ[K, B] · dY[B, N], the loop over the batch B.
//    X is [B, K] row-major (ldx), dY is [B, N] (ldy).
template <int BM, int BN, int BB>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void linear_dw(const half* x, const half* dy, float* dw, int B, int K, int N, int ldx, int ldy) {
  auto rk = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rb = arange<BB>();
  auto acc = zeros<float, BM, BN>();
  for (int b = 0; b < B; b += BB) {
    auto xt = load(x + col(b + rb) * ldx + row(rk), col(b + rb < B) & row(rk < K), 0.0f);   // [BB, BM]
    auto g = load(dy + col(b + rb) * ldy + row(rn), col(b + rb < B) & row(rn < N), 0.0f);   // [BB, BN]
    acc = dot(trans(xt), g, acc);
  }
  store(dw + col(rk) * N + row(rn), acc, col(rk < K) & row(rn < N));
}
template void linear_dw<64, 64, 32>(const half*, const half*, float*, int, int, int, int, int);
template void linear_dw<128, 128, 64>(const half*, const half*, float*, int, int, int, int, int);

// 5. Same with aligned leading dimensions promised: the user expects 16-byte loads.
template <int BM, int BN, int BB>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void linear_dw_al(TILECC_ALIGNED(16) const half* x, TILECC_ALIGNED(16) const half* dy, float* dw, int B, int K, int N,
                  TILECC_MULTIPLE_OF(8) int ldx, TILECC_MULTIPLE_OF(8) int ldy) {
  auto rk = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rb = arange<BB>();
  auto acc = zeros<float, BM, BN>();
  for (int b = 0; b < B; b += BB) {
    auto xt = load(x + col(b + rb) * ldx + row(rk), col(b + rb < B) & row(rk < K), 0.0f);
    auto g = load(dy + col(b + rb) * ldy + row(rn), col(b + rb < B) & row(rn < N), 0.0f);
    acc = dot(trans(xt), g, acc);
  }
  store(dw + col(rk) * N + row(rn), acc, col(rk < K) & row(rn < N));
}
template void linear_dw_al<128, 128, 32>(const half*, const half*, float*, int, int, int, int, int);
