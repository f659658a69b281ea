// Attention variants a user porting Triton/CUDA code writes (user-kernel probe set).
#include <tilecc/tile.hpp>
using namespace tilecc;

// 7. Grouped-query attention, non-causal: q [B][H][S][dh], k/v [B][HKV][S][dh] (contiguous),
//    H = HKV · GROUP query heads share a K/V head. The head size dh is a run-time value up to the
//    tile's D (dh = 96 in a D = 128 tile: masked columns, as Triton ports pad BLOCK_DMODEL).
//    S need not be a multiple of BN. Natural exp (not exp2), output in T.
template <class T, int BM, int BN, int D>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void attn_gqa(const T* q, const T* k, const T* v, T* out, int S, int dh, int H, int HKV, float sm_scale) {
  const int bh = program_id(1);
  const int b = bh / H, h = bh % H;
  const int hkv = h / (H / HKV);
  const int64_t q_off = (int64_t{b} * H + h) * S * dh;
  const int64_t kv_off = (int64_t{b} * HKV + hkv) * S * dh;
  auto offs_m = program_id(0) * BM + arange<BM>();
  auto offs_d = arange<D>();
  auto dmask = row(offs_d) < dh;
  auto qt = load(q + q_off + cast<int64_t>(col(offs_m)) * dh + row(offs_d), (col(offs_m) < S) & dmask, 0.0f);
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, D>();
  for (int start = 0; start < S; start += BN) {
    auto offs_n = start + arange<BN>();
    auto kv = kv_off + cast<int64_t>(col(offs_n)) * dh + row(offs_d);
    auto kt = load(k + kv, (col(offs_n) < S) & dmask, 0.0f);
    auto vt = load(v + kv, (col(offs_n) < S) & dmask, 0.0f);
    auto s = where(row(offs_n) < S, dot(qt, trans(kt)) * sm_scale, -INFINITY);
    auto m_new = maximum(m_i, max<1>(s));
    auto alpha = exp(m_i - m_new);
    auto p = exp(s - col(m_new));
    l_i = l_i * alpha + sum<1>(p);
    acc = dot(cast<T>(p), vt, acc * col(alpha));
    m_i = m_new;
  }
  store(out + q_off + cast<int64_t>(col(offs_m)) * dh + row(offs_d), cast<T>(acc / col(l_i)),
        (col(offs_m) < S) & dmask);
}

template void attn_gqa<half, 64, 64, 128>(const half*, const half*, const half*, half*, int, int, int, int, float);
template void attn_gqa<bfloat16, 64, 32, 32>(const bfloat16*, const bfloat16*, const bfloat16*, bfloat16*, int, int,
                                             int, int, float);

// 8. Attention with a key-padding mask from a lengths array: batch b's keys past lens[b] are
//    masked (loop stops at lens[b]; lens[b] may be 0: the output is then 0). Layout
//    [B][S][H][D] (heads interleaved, the row stride is H·D), fp32 output, an optional causal
//    mask, the loop step a template parameter.
template <int BM, int BN, int D, bool CAUSAL>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void attn_varlen(const bfloat16* q, const bfloat16* k, const bfloat16* v, const int* lens, float* out, int S, int H,
                 float sm_scale) {
  const int bh = program_id(1);
  const int b = bh / H, h = bh % H;
  const int len = load(lens + b);
  const int64_t base = int64_t{b} * S * H * D + int64_t{h} * D;
  const int64_t ld = int64_t{H} * D;
  const int start_m = program_id(0) * BM;
  auto offs_m = start_m + arange<BM>();
  auto offs_d = arange<D>();
  auto qt = load(q + base + cast<int64_t>(col(offs_m)) * ld + row(offs_d), col(offs_m) < S, 0.0f);
  const float qk_scale = sm_scale * 1.4426950408889634f;
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, D>();
  const int end = CAUSAL ? min(len, start_m + BM) : len;
  for (int start = 0; start < end; start += BN) {
    auto offs_n = start + arange<BN>();
    auto kv = base + cast<int64_t>(col(offs_n)) * ld + row(offs_d);
    auto kt = load(k + kv, col(offs_n) < len, 0.0f);
    auto vt = load(v + kv, col(offs_n) < len, 0.0f);
    auto ok = (row(offs_n) < len) & ((col(offs_m) >= row(offs_n)) | !CAUSAL);
    auto s = where(ok, dot(qt, trans(kt)), -INFINITY);
    auto m_new = maximum(m_i, max<1>(s) * qk_scale);
    // rows with every key masked so far keep m = -inf: guard the exponent (-inf - -inf = NaN)
    auto m_safe = where(m_new == -INFINITY, 0.0f, m_new);
    auto alpha = exp2(m_i - m_safe);
    auto p = exp2(s * qk_scale - col(m_safe));
    l_i = l_i * alpha + sum<1>(p);
    acc = dot(cast<bfloat16>(p), vt, acc * col(alpha));
    m_i = m_new;
  }
  auto o = where(col(l_i) > 0.0f, acc / col(l_i), 0.0f);
  store(out + base + cast<int64_t>(col(offs_m)) * ld + row(offs_d), o, col(offs_m) < S);
}

template void attn_varlen<128, 64, 64, false>(const bfloat16*, const bfloat16*, const bfloat16*, const int*, float*,
                                              int, int, float);
template void attn_varlen<128, 128, 64, true>(const bfloat16*, const bfloat16*, const bfloat16*, const int*, float*,
                                              int, int, float);

// 9. Causal attention with a large head (D = 256) and small blocks (BM = 64, BN = 32), one
//    loop with the mask on every block, fp16 output, also writing the row log-sum-exp (for a
//    backward pass) in natural-log units.
template <int BM, int BN, int D>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void attn_causal_lse(const half* q, const half* k, const half* v, half* out, float* lse, int S, float sm_scale) {
  const int64_t head = int64_t{program_id(1)} * S * D;
  const int start_m = program_id(0) * BM;
  auto offs_m = start_m + arange<BM>();
  auto offs_d = arange<D>();
  auto qt = load(q + head + col(offs_m) * D + row(offs_d), col(offs_m) < S, 0.0f);
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, D>();
  const int end = min(S, start_m + BM);
  for (int start = 0; start < end; start += BN) {
    auto offs_n = start + arange<BN>();
    auto kt = load(k + head + col(offs_n) * D + row(offs_d), col(offs_n) < S, 0.0f);
    auto vt = load(v + head + col(offs_n) * D + row(offs_d), col(offs_n) < S, 0.0f);
    auto s = dot(qt, trans(kt)) * sm_scale;
    s = where((col(offs_m) >= row(offs_n)) & (row(offs_n) < S), s, -INFINITY);
    auto m_new = maximum(m_i, max<1>(s));
    auto alpha = exp(m_i - m_new);
    auto p = exp(s - col(m_new));
    l_i = l_i * alpha + sum<1>(p);
    acc = dot(cast<half>(p), vt, acc * col(alpha));
    m_i = m_new;
  }
  store(out + head + col(offs_m) * D + row(offs_d), cast<half>(acc / col(l_i)), col(offs_m) < S);
  store(lse + int64_t{program_id(1)} * S + offs_m, m_i + log(l_i), offs_m < S);
}

template void attn_causal_lse<64, 32, 256>(const half*, const half*, const half*, half*, float*, int, float);
template void attn_causal_lse<64, 64, 128>(const half*, const half*, const half*, half*, float*, int, float);
