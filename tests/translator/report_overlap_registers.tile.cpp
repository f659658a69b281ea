// --emit=report: attention's two dots overlap across iterations (overlap-dots) only where the
// overlapped loop leaves the consumer warp groups registers for more than its tiles: with
// 256-key blocks at D = 64 the scores (128 registers) and the previous block's P (64) would
// take about 228 of the 232 a consumer thread has, and ptxas would serialise the wgmma (C7512)
// and spill, so the loop stays as written and the report says why; 128-key blocks overlap.
// ARGS: --emit=report --arch sm_90a
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel attention_128_256_64_3_tma (attention<128, 256, 64, 3>), 8 warps, for sm_90a
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; the loop's two dots do not overlap: overlapped, they would need about {{2[0-9][0-9]}} registers per thread for tiles (at line {{[0-9]+}}: qk 128, {{.*}}), leaving fewer than 32 of the 232 a consumer thread has for the rest (ptxas would serialise the wgmma)
// CHECK-LABEL: kernel attention_128_128_64_4_tma (attention<128, 128, 64, 4>), 8 warps, for sm_90a
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; the loop's two dots overlap across iterations{{$}}
template <int BM, int BN, int HEAD_DIM, int STAGES>
TILECC_KERNEL(num_warps = 8, num_stages = STAGES, warp_specialize = true)
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
  const int end_n = min(seq_len, start_m + BM);
  for (int start_n = 0; start_n < end_n; start_n += BN) {
    auto offs_n = start_n + arange<BN>();
    auto kv_offsets = head_offset + cast<int64_t>(col(offs_n)) * stride_row + cast<int64_t>(row(offs_d));
    auto k_tile = load(k + kv_offsets, col(offs_n) < seq_len, 0.0f);
    auto v_tile = load(v + kv_offsets, col(offs_n) < seq_len, 0.0f);
    auto valid = (row(offs_n) < seq_len) & ((col(offs_m) >= row(offs_n)));
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
template void attention<128, 256, 64, 3>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 128, 64, 4>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
