// Attention variants (uk2 probe set). Layout [Z*H, S, D] contiguous, bf16 in and out, fp32 accumulation.
#include <tilecc/tile.hpp>
using namespace tilecc;

// 12-14. MODE 0: causal (key loop bounded above by the diagonal); MODE 1: sliding window of `window`
// keys (both bounds computed); MODE 2: ALiBi bias slope[h] * (k - q), no mask.
template <int BM, int BN, int D, int MODE>
TILECC_KERNEL(num_warps = BM / 16, num_stages = 2)
void attn_var(const bfloat16* q, const bfloat16* k, const bfloat16* v, const float* slopes, bfloat16* out, int S, int H,
              int window, float sm_scale) {
  const int start_m = program_id(0) * BM;
  const int bh = program_id(1);
  const int64_t base = int64_t(bh) * S * D;
  auto offs_m = start_m + arange<BM>();
  auto offs_n = arange<BN>();
  auto offs_d = arange<D>();
  auto qt = load(q + base + col(offs_m) * D + row(offs_d), col(offs_m < S), 0.0f);
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, D>();
  const float qk_scale = sm_scale * 1.44269504f;
  int lo = 0, hi = S;
  if constexpr (MODE == 0) hi = tilecc::min(S, start_m + BM);
  if constexpr (MODE == 1) {
    lo = tilecc::max(0, start_m - window + 1) / BN * BN;
    hi = tilecc::min(S, start_m + BM);
  }
  float slope = 0.0f;
  if constexpr (MODE == 2) slope = load(slopes + bh % H) * 1.44269504f;
  for (int n = lo; n < hi; n += BN) {
    auto kn = n + offs_n;
    auto kt = load(k + base + col(kn) * D + row(offs_d), col(kn < S), 0.0f);
    auto s = dot(qt, trans(kt)) * qk_scale;
    auto valid = (col(offs_m) >= 0) & row(kn < S);
    if constexpr (MODE == 0) valid = valid & (col(offs_m) >= row(kn));
    if constexpr (MODE == 1) valid = valid & (col(offs_m) >= row(kn)) & (col(offs_m) - row(kn) < window);
    if constexpr (MODE == 2) s = s + slope * cast<float>(row(kn) - col(offs_m));
    s = where(valid, s, -INFINITY);
    auto m_new = maximum(m_i, max<1>(s));
    auto m_use = where(m_new == -INFINITY, 0.0f, m_new);
    auto p = fast_exp2(s - col(m_use));
    auto alpha = fast_exp2(m_i - m_use);
    l_i = l_i * alpha + sum<1>(p);
    auto vt = load(v + base + col(kn) * D + row(offs_d), col(kn < S), 0.0f);
    acc = dot(cast<bfloat16>(p), vt, acc * col(alpha));
    m_i = m_new;
  }
  acc = acc / col(where(l_i == 0.0f, 1.0f, l_i));
  store(out + base + col(offs_m) * D + row(offs_d), cast<bfloat16>(acc), col(offs_m < S));
}
template void attn_var<64, 64, 64, 0>(const bfloat16*, const bfloat16*, const bfloat16*, const float*, bfloat16*, int, int, int, float);
template void attn_var<64, 32, 64, 1>(const bfloat16*, const bfloat16*, const bfloat16*, const float*, bfloat16*, int, int, int, float);
template void attn_var<128, 64, 64, 2>(const bfloat16*, const bfloat16*, const bfloat16*, const float*, bfloat16*, int, int, int, float);

// 15. Causal attention, backward-style key-block program: one program per key block; the query loop
//     starts at the diagonal (lower bound), computes dV = Pᵀ dO (P recomputed from the saved LSE).
template <int BM, int BN, int D>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void attn_dv(const half* q, const half* k, const half* dout, const float* lse, float* dv, int S, float sm_scale) {
  const int start_n = program_id(0) * BN;
  const int64_t base = int64_t(program_id(1)) * S * D;
  auto offs_n = start_n + arange<BN>();
  auto offs_d = arange<D>();
  auto kt = load(k + base + col(offs_n) * D + row(offs_d), col(offs_n < S), 0.0f);   // [BN, D]
  auto acc = zeros<float, BN, D>();
  const float qk_scale = sm_scale * 1.44269504f;
  for (int m0 = start_n / BM * BM; m0 < S; m0 += BM) {
    auto qm = m0 + arange<BM>();
    auto qt = load(q + base + col(qm) * D + row(offs_d), col(qm < S), 0.0f);           // [BM, D]
    auto l = load(lse + int64_t(program_id(1)) * S + qm, qm < S, 0.0f);
    auto st = dot(kt, trans(qt)) * qk_scale;                                            // [BN, BM]
    auto pt = exp2(st - row(l));
    pt = where((row(qm) >= col(offs_n)) & row(qm < S), pt, 0.0f);
    auto dot_ = load(dout + base + col(qm) * D + row(offs_d), col(qm < S), 0.0f);      // [BM, D]
    acc = dot(cast<half>(pt), dot_, acc);
  }
  store(dv + base + col(offs_n) * D + row(offs_d), acc, col(offs_n < S));
}
template void attn_dv<64, 64, 64>(const half*, const half*, const half*, const float*, float*, int, float);
