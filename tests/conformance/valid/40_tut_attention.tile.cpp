// Second audit: Triton tutorial 06, fused attention forward in the tutorial's form: block
// pointers for Q, K (a transposed view: shape (HEAD_DIM, N_CTX), strides (stride_kk,
// stride_kn)), V and O; the inner loop as a helper with in-out references (acc, l_i, m_i);
// as in the tutorial the kernel's STAGE is 1 (non-causal: the helper's stage 3, every key) or 3
// (causal: the helper's stage 1, off-band, then 2, on-band); M = m_i + log2(l_i) is stored.
// Unlike the tutorial, N_CTX need not be a multiple of the blocks: keys past N_CTX are masked
// in the non-causal stage (the causal stages never reach them for valid queries).
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BLOCK_M, int HEAD_DIM, int BLOCK_N, int STAGE, class KBP, class VBP>
void attn_fwd_inner(tile<float, BLOCK_M, HEAD_DIM>& acc, tile<float, BLOCK_M>& l_i, tile<float, BLOCK_M>& m_i,
                    const tile<half, BLOCK_M, HEAD_DIM>& q, KBP K_block_ptr, VBP V_block_ptr, int start_m,
                    float qk_scale, const tile<int, BLOCK_M>& offs_m, const tile<int, BLOCK_N>& offs_n, int N_CTX) {
  int lo = 0, hi = N_CTX;
  if constexpr (STAGE == 1) {
    lo = 0;
    hi = start_m * BLOCK_M;
  } else if constexpr (STAGE == 2) {
    lo = start_m * BLOCK_M;
    hi = (start_m + 1) * BLOCK_M;
    lo = multiple_of(lo, BLOCK_M);
  }
  K_block_ptr = advance(K_block_ptr, {0, lo});
  V_block_ptr = advance(V_block_ptr, {lo, 0});
  for (int start_n = lo; start_n < hi; start_n += BLOCK_N) {
    start_n = multiple_of(start_n, BLOCK_N);  // as the tutorial: a hint of the loop variable
    auto k = load(K_block_ptr);
    auto qk = dot(q, k);
    tile<float, BLOCK_M> m_ij;
    if constexpr (STAGE == 2) {
      auto mask = col(offs_m) >= (start_n + row(offs_n));
      qk = qk * qk_scale + where(mask, 0.0f, -1.0e6f);
      m_ij = maximum(m_i, max<1>(qk));
      qk -= col(m_ij);
    } else {
      if constexpr (STAGE == 3) qk = where(start_n + row(offs_n) < N_CTX, qk, -1.0e6f);
      m_ij = maximum(m_i, max<1>(qk) * qk_scale);
      qk = qk * qk_scale - col(m_ij);
    }
    auto p = exp2(qk);
    auto l_ij = sum<1>(p);
    auto alpha = exp2(m_i - m_ij);
    l_i = l_i * alpha + l_ij;
    acc = acc * col(alpha);
    auto v = load(V_block_ptr);
    acc = dot(cast<half>(p), v, acc);
    m_i = m_ij;
    V_block_ptr = advance(V_block_ptr, {BLOCK_N, 0});
    K_block_ptr = advance(K_block_ptr, {0, BLOCK_N});
  }
}

template <int HEAD_DIM, int BLOCK_M, int BLOCK_N, int STAGE>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void a2_attn_fwd(const half* Q, const half* K, const half* V, float sm_scale, float* M, half* Out, int64_t stride_qz,
                 int64_t stride_qh, int64_t stride_qm, int64_t stride_qk, int64_t stride_kz, int64_t stride_kh,
                 int64_t stride_kn, int64_t stride_kk, int64_t stride_vz, int64_t stride_vh, int64_t stride_vk,
                 int64_t stride_vn, int64_t stride_oz, int64_t stride_oh, int64_t stride_om, int64_t stride_on, int Z,
                 int H, int N_CTX) {
  (void)Z;
  const int start_m = program_id(0);
  const int off_hz = program_id(1);
  const int off_z = off_hz / H;
  const int off_h = off_hz % H;
  const int64_t q_offset = off_z * stride_qz + off_h * stride_qh;
  const int64_t k_offset = off_z * stride_kz + off_h * stride_kh;
  const int64_t v_offset = off_z * stride_vz + off_h * stride_vh;
  const int64_t o_offset = off_z * stride_oz + off_h * stride_oh;

  auto Q_block_ptr = make_block_ptr<BLOCK_M, HEAD_DIM>(Q + q_offset, {N_CTX, HEAD_DIM}, {stride_qm, stride_qk},
                                                       {start_m * BLOCK_M, 0});
  auto V_block_ptr = make_block_ptr<BLOCK_N, HEAD_DIM>(V + v_offset, {N_CTX, HEAD_DIM}, {stride_vk, stride_vn}, {0, 0});
  auto K_block_ptr = make_block_ptr<HEAD_DIM, BLOCK_N>(K + k_offset, {HEAD_DIM, N_CTX}, {stride_kk, stride_kn}, {0, 0});
  auto O_block_ptr = make_block_ptr<BLOCK_M, HEAD_DIM>(Out + o_offset, {N_CTX, HEAD_DIM}, {stride_om, stride_on},
                                                       {start_m * BLOCK_M, 0});
  auto offs_m = start_m * BLOCK_M + arange<BLOCK_M>();
  auto offs_n = arange<BLOCK_N>();
  auto m_i = full<float, BLOCK_M>(-INFINITY);
  auto l_i = zeros<float, BLOCK_M>() + 1.0f;
  auto acc = zeros<float, BLOCK_M, HEAD_DIM>();
  const float qk_scale = sm_scale * 1.44269504f;
  auto q = load(Q_block_ptr);
  if constexpr ((STAGE & 1) != 0)
    attn_fwd_inner<BLOCK_M, HEAD_DIM, BLOCK_N, 4 - STAGE>(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, qk_scale,
                                                          offs_m, offs_n, N_CTX);
  if constexpr ((STAGE & 2) != 0)
    attn_fwd_inner<BLOCK_M, HEAD_DIM, BLOCK_N, 2>(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, qk_scale, offs_m,
                                                  offs_n, N_CTX);
  m_i += log2(l_i);
  acc = acc / col(l_i);
  auto m_ptrs = M + off_hz * N_CTX + offs_m;
  store(m_ptrs, m_i, offs_m < N_CTX);
  store(O_block_ptr, cast<half>(acc));
}

template void a2_attn_fwd<64, 128, 64, 3>(const half*, const half*, const half*, float, float*, half*, int64_t, int64_t,
                                          int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                          int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int, int);
template void a2_attn_fwd<64, 128, 64, 1>(const half*, const half*, const half*, float, float*, half*, int64_t, int64_t,
                                          int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                          int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int, int);
