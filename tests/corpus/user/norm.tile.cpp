// Row/column reductions a user porting Triton/CUDA code writes (user-kernel probe set).
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// 10. Fused residual add + RMSNorm over long rows, two passes over BLOCK-wide chunks: the first
//     stores h = x + res (res_out) and accumulates the sum of squares, the second reloads
//     res_out after barrier() and writes out = h · rstd · weight.
template <class T, int BLOCK>
TILECC_KERNEL(num_warps = BLOCK >= 2048 ? 8 : 4)
void add_rmsnorm(const T* x, const T* res, const T* weight, T* out, T* res_out, int N, int64_t stride, float eps) {
  const int64_t r = program_id(0);
  x += r * stride;
  res += r * stride;
  out += r * stride;
  res_out += r * stride;
  auto sq = zeros<float, BLOCK>();
  for (int c = 0; c < N; c += BLOCK) {
    auto cols = c + arange<BLOCK>();
    auto m = cols < N;
    auto h = cast<T>(cast<float>(load(x + cols, m, 0.0f)) + cast<float>(load(res + cols, m, 0.0f)));
    store(res_out + cols, h, m);
    auto hf = cast<float>(h);
    sq += hf * hf;
  }
  const float rstd = 1.0f / std::sqrt(sum(sq) / static_cast<float>(N) + eps);
  barrier();
  for (int c = 0; c < N; c += BLOCK) {
    auto cols = c + arange<BLOCK>();
    auto m = cols < N;
    auto h = cast<float>(load(res_out + cols, m, 0.0f));
    auto w = cast<float>(load(weight + cols, m, 0.0f));
    store(out + cols, cast<T>(h * rstd * w), m);
  }
}

template void add_rmsnorm<bfloat16, 1024>(const bfloat16*, const bfloat16*, const bfloat16*, bfloat16*, bfloat16*, int,
                                          int64_t, float);
template void add_rmsnorm<half, 4096>(const half*, const half*, const half*, half*, half*, int, int64_t, float);

// 11. Softmax (or log-softmax) down each column (axis 0) of x[M][N], M <= BM: each program
//     owns BN columns; masked rows load -inf.
template <int BM, int BN, bool LOG>
TILECC_KERNEL(num_warps = 4)
void softmax_col(const float* x, float* out, int M, int N) {
  auto rows = arange<BM>();
  auto cols = program_id(0) * BN + arange<BN>();
  auto mask = (col(rows) < M) & (row(cols) < N);
  auto offs = col(rows) * N + row(cols);
  auto t = load(x + offs, mask, -INFINITY);
  auto mx = max<0>(t);
  auto e = exp(t - row(mx));
  auto s = sum<0>(e);
  if constexpr (LOG)
    store(out + offs, t - row(mx) - row(log(s)), mask);
  else
    store(out + offs, e / row(s), mask);
}

template void softmax_col<128, 32, false>(const float*, float*, int, int);
template void softmax_col<32, 128, true>(const float*, float*, int, int);

// 12. Cross-entropy per row with int64 labels (ignore_index < 0 gives 0) and the row's argmax
//     (int64), over a vocabulary in BLOCK-wide chunks: online log-sum-exp with scalars carried
//     by the loop, an argmax carried by an if.
template <int BLOCK>
TILECC_KERNEL(num_warps = 8)
void cross_entropy(const bfloat16* logits, const int64_t* labels, float* loss, int64_t* pred, int V, int64_t stride) {
  const int64_t r = program_id(0);
  logits += r * stride;
  float m = -INFINITY;
  float s = 0.0f;
  float best = -INFINITY;
  int best_i = 0;
  for (int k = 0; k < V; k += BLOCK) {
    auto cols = k + arange<BLOCK>();
    auto xv = cast<float>(load(logits + cols, cols < V, -INFINITY));
    const float cm = max(xv);
    if (cm > best) {
      best = cm;
      best_i = k + argmax(xv);
    }
    const float m_new = tilecc::max(m, cm);
    s = s * std::exp(m - m_new) + sum(exp(xv - m_new));
    m = m_new;
  }
  const int64_t lab = load(labels + r);
  store(pred + r, int64_t{best_i});
  if (lab < 0) {
    store(loss + r, 0.0f);
    return;
  }
  const float xl = cast<float>(load(logits + lab));
  store(loss + r, m + std::log(s) - xl);
}

template void cross_entropy<2048>(const bfloat16*, const int64_t*, float*, int64_t*, int, int64_t);

// 13. Inclusive prefix sums down the columns (axis 0) of an int and a float matrix, BM rows at
//     a time with a carried per-column total; ragged M and N.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void cumsum_rows(const int* x, const float* fx, int* out, float* fout, int M, int N) {
  auto cols = program_id(0) * BN + arange<BN>();
  auto carry = zeros<int, BN>();
  auto fcarry = zeros<float, BN>();
  for (int r0 = 0; r0 < M; r0 += BM) {
    auto rows = r0 + arange<BM>();
    auto mask = (col(rows) < M) & (row(cols) < N);
    auto offs = cast<int64_t>(col(rows)) * N + row(cols);
    auto t = load(x + offs, mask, 0);
    store(out + offs, cumsum<0>(t) + row(carry), mask);
    carry += sum<0>(t);
    auto f = load(fx + offs, mask, 0.0f);
    store(fout + offs, cumsum<0>(f) + row(fcarry), mask);
    fcarry += sum<0>(f);
  }
}

template void cumsum_rows<64, 64>(const int*, const float*, int*, float*, int, int);
template void cumsum_rows<16, 256>(const int*, const float*, int*, float*, int, int);
