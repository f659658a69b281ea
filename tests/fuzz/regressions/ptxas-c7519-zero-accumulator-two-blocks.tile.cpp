// tilecc fuzz finding (sm_90a warp-specialisation campaign, 2026-11-25).
// Class: ptxas note the build refuses (wgmma serialised)
// Signature: (C7519) warpgroup.arrive is injected ... to allow use of registers in GMMA
// Observed (before the fix): one warp group with two 64-row blocks; the scores' zero-initialised
// accumulator shared one zero register, which nvcc copied into the second block's registers
// between the two blocks' wgmmas. Each register now holds its value before the fence.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4, num_stages = 2)
void at0(const half* q, const half* k, const half* v, float* out, int seq_len, float sm_scale, int64_t stride_head, int64_t stride_row) {
  const int start_m = program_id(0) * 128;
  const int64_t head_offset = program_id(1) * stride_head;
  auto offs_m = start_m + arange<128>();
  auto offs_d = arange<128>();
  auto q_tile = load(q + head_offset + cast<int64_t>(col(offs_m)) * stride_row + row(offs_d), col(offs_m) < seq_len, 0.0f);
  const float qk_scale = sm_scale * 1.4426950408889634f;
  auto m_i = full<float, 128>(-INFINITY);
  auto l_i = zeros<float, 128>();
  auto acc = zeros<float, 128, 128>();
  const int end_n = seq_len;
  for (int start_n = 0; start_n < end_n; start_n += 32) {
    auto offs_n = start_n + arange<32>();
    auto kv_offsets = head_offset + cast<int64_t>(col(offs_n)) * stride_row + cast<int64_t>(row(offs_d));
    auto k_tile = load(k + kv_offsets);
    auto v_tile = load(v + kv_offsets);
    auto s = dot(q_tile, trans(k_tile));
    auto qk = where((row(offs_n) < seq_len), s * qk_scale, -INFINITY);
    auto m_new = maximum(m_i, max<1>(qk));
    auto alpha = exp2(m_i - m_new);
    auto p = exp2(qk - col(m_new));
    l_i = l_i * alpha + sum<1>(p);
    acc = dot(cast<half>(p), v_tile, acc * col(alpha));
    m_i = m_new;
  }
  store(out + head_offset + cast<int64_t>(col(offs_m)) * stride_row + row(offs_d), acc / col(l_i), col(offs_m) < seq_len);
}

