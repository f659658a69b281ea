// Attention variants (third user-style set, tests/corpus/user): block-sparse key blocks, an additive bias tensor, small heads
// and odd block shapes, split-KV decoding with a combine kernel.
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// 9. Block-sparse attention: a key block takes part only where layout[qb][kb] (int8, from memory)
//    is non-zero; the loads, both dots and the online softmax sit inside the `if`. Rows with no
//    active block give 0. q/k/v/out half [ZH][S][D].
template <int BM, int BN, int D, int WARPS>
TILECC_KERNEL(num_warps = WARPS, num_stages = 3)
void bsattn(const half* q, const half* k, const half* v, const int8_t* layout, half* out, int S, float sm_scale) {
  const int qb = program_id(0);
  const int64_t base = int64_t(program_id(1)) * S * D;
  const int nkb = cdiv(S, BN);
  auto offs_m = qb * BM + arange<BM>();
  auto offs_d = arange<D>();
  auto qt = load(q + base + col(offs_m) * D + row(offs_d), col(offs_m < S), 0.0f);
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, D>();
  const float qk_scale = sm_scale * 1.44269504f;
  for (int kb = 0; kb < nkb; ++kb) {
    if (load(layout + int64_t(qb) * nkb + kb) != 0) {
      auto kn = kb * BN + arange<BN>();
      auto kt = load(k + base + col(kn) * D + row(offs_d), col(kn < S), 0.0f);
      auto vt = load(v + base + col(kn) * D + row(offs_d), col(kn < S), 0.0f);
      auto s = where(row(kn < S), dot(qt, trans(kt)) * qk_scale, -INFINITY);
      auto m_new = maximum(m_i, max<1>(s));
      auto alpha = exp2(m_i - m_new);
      auto p = exp2(s - col(m_new));
      l_i = l_i * alpha + sum<1>(p);
      acc = dot(cast<half>(p), vt, acc * col(alpha));
      m_i = m_new;
    }
  }
  auto o = acc / col(where(l_i > 0.0f, l_i, 1.0f));
  store(out + base + col(offs_m) * D + row(offs_d), cast<half>(o), col(offs_m < S));
}
template void bsattn<64, 64, 64, 4>(const half*, const half*, const half*, const int8_t*, half*, int, float);
template void bsattn<128, 64, 128, 8>(const half*, const half*, const half*, const int8_t*, half*, int, float);

// 10. Attention with an additive bias tensor bias[h][i][j] (fp32, T5 / relative-position style)
//     loaded per key block, key padding by lengths; bf16; H heads, program_id(1) = z * H + h.
template <int BM, int BN, int D, int STAGES>
TILECC_KERNEL(num_warps = 4, num_stages = STAGES)
void attn_bias(const bfloat16* q, const bfloat16* k, const bfloat16* v, const float* bias, const int* lens, bfloat16* out,
               int S, int H, float sm_scale) {
  const int zh = program_id(1);
  const int h = zh % H, z = zh / H;
  const int len = load(lens + z);
  const int64_t base = int64_t(zh) * S * D;
  const int64_t bbase = int64_t(h) * S * S;
  auto offs_m = program_id(0) * BM + arange<BM>();
  auto offs_d = arange<D>();
  auto qt = load(q + base + col(offs_m) * D + row(offs_d), col(offs_m < S), 0.0f);
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, D>();
  for (int n = 0; n < len; n += BN) {
    auto kn = n + arange<BN>();
    auto kt = load(k + base + col(kn) * D + row(offs_d), col(kn < len), 0.0f);
    auto bt = load(bias + bbase + cast<int64_t>(col(offs_m)) * S + row(kn), col(offs_m < S) & row(kn < len), 0.0f);
    auto s = dot(qt, trans(kt)) * sm_scale + bt;
    s = where(row(kn < len), s, -INFINITY);
    auto m_new = maximum(m_i, max<1>(s));
    auto p = exp(s - col(m_new));
    auto alpha = exp(m_i - m_new);
    l_i = l_i * alpha + sum<1>(p);
    auto vt = load(v + base + col(kn) * D + row(offs_d), col(kn < len), 0.0f);
    acc = dot(cast<bfloat16>(p), vt, acc * col(alpha));
    m_i = m_new;
  }
  acc = acc / col(where(l_i > 0.0f, l_i, 1.0f));
  store(out + base + col(offs_m) * D + row(offs_d), cast<bfloat16>(acc), col(offs_m < S));
}
template void attn_bias<64, 64, 64, 2>(const bfloat16*, const bfloat16*, const bfloat16*, const float*, const int*, bfloat16*, int, int, float);
template void attn_bias<64, 32, 64, 4>(const bfloat16*, const bfloat16*, const bfloat16*, const float*, const int*, bfloat16*, int, int, float);

// 11. Cross attention with separate query and key lengths, head size 32, odd blocks
//     (BN = 16 keys: P·V with K = 16; BM = 16 queries on one warp), fp16, fp32 output.
template <int BM, int BN, int D, int WARPS>
TILECC_KERNEL(num_warps = WARPS, num_stages = 2)
void xattn(const half* q, const half* k, const half* v, float* out, int Sq, int Skv, float sm_scale) {
  const int64_t qbase = int64_t(program_id(1)) * Sq * D;
  const int64_t kbase = int64_t(program_id(1)) * Skv * D;
  auto offs_m = program_id(0) * BM + arange<BM>();
  auto offs_d = arange<D>();
  auto qt = load(q + qbase + col(offs_m) * D + row(offs_d), col(offs_m < Sq), 0.0f);
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, D>();
  for (int n = 0; n < Skv; n += BN) {
    auto kn = n + arange<BN>();
    auto kt = load(k + kbase + col(kn) * D + row(offs_d), col(kn < Skv), 0.0f);
    auto s = where(row(kn < Skv), dot(qt, trans(kt)) * sm_scale, -INFINITY);
    auto m_new = maximum(m_i, max<1>(s));
    auto p = exp(s - col(m_new));
    auto alpha = exp(m_i - m_new);
    l_i = l_i * alpha + sum<1>(p);
    auto vt = load(v + kbase + col(kn) * D + row(offs_d), col(kn < Skv), 0.0f);
    acc = dot(cast<half>(p), vt, acc * col(alpha));
    m_i = m_new;
  }
  acc = acc / col(where(l_i > 0.0f, l_i, 1.0f));
  store(out + qbase + col(offs_m) * D + row(offs_d), acc, col(offs_m < Sq));
}
template void xattn<64, 16, 32, 4>(const half*, const half*, const half*, float*, int, int, float);
template void xattn<16, 64, 32, 1>(const half*, const half*, const half*, float*, int, int, float);

// 12. Split-KV decoding (flash-decoding), one query row per (batch, head): program (bh, split)
//     handles keys [split * chunk, ...) without dot (M = 1), writes a partial output and its
//     log-sum-exp; a second kernel combines the splits.
template <int BN, int D>
TILECC_KERNEL(num_warps = 4)
void decode_split(const bfloat16* q, const bfloat16* kc, const bfloat16* vc, const int* lens, float* part_o, float* part_lse,
                  int max_len, int chunk, float sm_scale) {
  const int bh = program_id(0), sp = program_id(1), nsp = num_programs(1);
  const int len = load(lens + bh);
  auto d = arange<D>();
  auto qv = cast<float>(load(q + int64_t(bh) * D + d));
  const int64_t kv = int64_t(bh) * max_len * D;
  const int lo = sp * chunk;
  const int hi = tilecc::min(len, lo + chunk);
  float m = -INFINITY, l = 0.0f;
  auto acc = zeros<float, D>();
  for (int n = lo; n < hi; n += BN) {
    auto kn = n + arange<BN>();
    auto kt = cast<float>(load(kc + kv + col(kn) * D + row(d), col(kn < hi), 0.0f));
    auto s = where(kn < hi, sum<1>(kt * row(qv)) * sm_scale, -INFINITY);
    const float m_new = tilecc::max(m, max(s));
    auto p = exp(s - m_new);
    const float alpha = std::exp(m - m_new);
    auto vt = cast<float>(load(vc + kv + col(kn) * D + row(d), col(kn < hi), 0.0f));
    acc = acc * alpha + sum<0>(col(p) * vt);
    l = l * alpha + sum(p);
    m = m_new;
  }
  const int64_t slot = int64_t(bh) * nsp + sp;
  store(part_o + slot * D + d, l > 0.0f ? acc / l : zeros<float, D>());
  store(part_lse + slot, l > 0.0f ? m + std::log(l) : -INFINITY);
}
template void decode_split<64, 128>(const bfloat16*, const bfloat16*, const bfloat16*, const int*, float*, float*, int, int, float);

template <int NSP, int D>
TILECC_KERNEL(num_warps = 2)
void decode_combine(const float* part_o, const float* part_lse, bfloat16* out, int nsp) {
  const int64_t bh = program_id(0);
  auto sp = arange<NSP>();
  auto d = arange<D>();
  auto lse = load(part_lse + bh * nsp + sp, sp < nsp, -INFINITY);
  const float mx = max(lse);
  const float m = mx == -INFINITY ? 0.0f : mx;
  auto w = where(sp < nsp, exp(lse - m), 0.0f);
  auto o = load(part_o + (bh * nsp + col(sp)) * D + row(d), col(sp < nsp), 0.0f);
  const float tot = sum(w);
  auto r = sum<0>(o * col(w)) / (tot > 0.0f ? tot : 1.0f);
  store(out + bh * D + d, cast<bfloat16>(r));
}
template void decode_combine<16, 128>(const float*, const float*, bfloat16*, int);
