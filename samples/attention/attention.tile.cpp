// Attention forward, flash style: each program owns BM queries of one (batch, head) and
// streams keys/values in blocks of BN with an online softmax (running max m_i and sum l_i),
// so the seq_len x seq_len score matrix never exists. Layout: [batch*heads, seq_len, HEAD_DIM]
// with strides stride_head and stride_row (elements).
#include <tilecc/tile.hpp>
using namespace tilecc;

// warp_specialize is left to the translator: where shared memory keeps a program alone on its SM
// (D = 128, or 256-key blocks), a producer warp group copies K and V (TMA) while the 8 warps
// compute, and the two dots overlap; at D = 64 with 128-key blocks two programs share an SM
// instead, which measured faster than specialising them (H100: 454-456 against 403-404 TFLOP/s).
template <int BM, int BN, int HEAD_DIM, bool CAUSAL, int STAGES = 2>
TILECC_KERNEL(num_warps = 8, num_stages = STAGES)
void attention(const half* q, const half* k, const half* v, half* out, int seq_len, float sm_scale,
               int64_t stride_head, int64_t stride_row) {
  const int start_m = program_id(0) * BM;
  const int64_t head_offset = program_id(1) * stride_head;
  auto offs_m = start_m + arange<BM>();
  auto offs_d = arange<HEAD_DIM>();
  auto q_tile = load(q + head_offset + cast<int64_t>(col(offs_m)) * stride_row + row(offs_d), col(offs_m) < seq_len,
                     0.0f);

  const float qk_scale = sm_scale * 1.4426950408889634f;  // scores in log2 units: fast_exp2 is one instruction
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, HEAD_DIM>();
  const int end_n = CAUSAL ? min(seq_len, start_m + BM) : seq_len;
  for (int start_n = 0; start_n < end_n; start_n += BN) {
    auto offs_n = start_n + arange<BN>();
    auto kv_offsets = head_offset + cast<int64_t>(col(offs_n)) * stride_row + cast<int64_t>(row(offs_d));
    auto k_tile = load(k + kv_offsets, col(offs_n) < seq_len, 0.0f);
    auto v_tile = load(v + kv_offsets, col(offs_n) < seq_len, 0.0f);
    auto valid = (row(offs_n) < seq_len) & ((col(offs_m) >= row(offs_n)) | !CAUSAL);
    auto qk = where(valid, dot(q_tile, trans(k_tile)), -INFINITY);
    // Scaled after the max (qk_scale > 0) and inside the exponent: one FFMA per score.
    auto m_new = maximum(m_i, max<1>(qk) * qk_scale);
    auto alpha = fast_exp2(m_i - m_new);
    auto p = fast_exp2(qk * qk_scale - col(m_new));
    l_i = l_i * alpha + sum<1>(p);
    acc = dot(cast<half>(p), v_tile, acc * col(alpha));
    m_i = m_new;
  }
  store(out + head_offset + cast<int64_t>(col(offs_m)) * stride_row + row(offs_d), cast<half>(acc / col(l_i)),
        col(offs_m) < seq_len);
}

// Configurations measured on the H100/H200 (README, Benchmarks): blocks of 128 keys with three
// stages, where at D = 128 the translator overlaps the two dots across iterations on sm_90a (one
// warp group's P.V runs while it computes the next block's softmax) and at D = 64 two programs
// share each SM (the fastest at D = 64, with a causal mask too since its epilogue goes through
// shared memory); blocks of 256 keys with two stages (warp-specialised) are the alternative the
// benchmark compares.
template void attention<128, 128, 64, false, 3>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 128, 64, true, 3>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 128, 128, false, 3>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 128, 128, true, 3>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 256, 64, false, 2>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 256, 64, true, 2>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
