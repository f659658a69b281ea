// Triton's tutorial attention as users port it (tests/bench/heldout/tutorials.tile.cpp): the row
// statistics m_i and l_i are carried through the key loop and stored once after it (M = m_i +
// log2(l_i)). They are stored from the accumulator's rows, where the loop computes them: asked in
// the store's own layout, the loop converted them through shared memory in every iteration (0.78x
// cuDNN against the sample's 0.94x, H100). Causal is two loops (off-band keys, then the diagonal
// band): warp-specialised with one ring that both loops read in turn (the second loop's rings,
// barriers and query staging are the first's), each loop's dots overlapped (no turns).
// ARGS: --emit=report --arch=sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// Tutorial 06's inner loop, as the tutorial writes it (STAGE 1: off-band keys of a causal
// program, 2: the diagonal band, 3: every key).
template <int BLOCK_M, int HEAD_DIM, int BLOCK_N, int STAGE, class KBP, class VBP>
void attn_fwd_inner(tile<float, BLOCK_M, HEAD_DIM>& acc, tile<float, BLOCK_M>& l_i, tile<float, BLOCK_M>& m_i,
                    const tile<half, BLOCK_M, HEAD_DIM>& q, KBP K_block_ptr, VBP V_block_ptr, int start_m,
                    float qk_scale, const tile<int, BLOCK_M>& offs_m, const tile<int, BLOCK_N>& offs_n, int N_CTX) {
  int lo = 0, hi = N_CTX;
  if constexpr (STAGE == 1) {
    hi = start_m * BLOCK_M;
  } else if constexpr (STAGE == 2) {
    lo = start_m * BLOCK_M;
    hi = (start_m + 1) * BLOCK_M;
    lo = multiple_of(lo, BLOCK_M);
  }
  K_block_ptr = advance(K_block_ptr, {0, lo});
  V_block_ptr = advance(V_block_ptr, {lo, 0});
  for (int start_n = lo; start_n < hi; start_n += BLOCK_N) {
    start_n = multiple_of(start_n, BLOCK_N);
    auto k = load(K_block_ptr);
    auto qk = dot(q, k);
    tile<float, BLOCK_M> m_ij;
    if constexpr (STAGE == 2) {
      auto mask = col(offs_m) >= (start_n + row(offs_n));
      qk = qk * qk_scale + where(mask, 0.0f, -1.0e6f);
      m_ij = maximum(m_i, max<1>(qk));
      qk -= col(m_ij);
    } else {
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

// Tutorial 06's forward kernel (STAGE 1: not causal, 3: causal); K read through a transposed
// block pointer, M = m_i + log2(l_i) stored for the backward pass.
template <int HEAD_DIM, int BLOCK_M, int BLOCK_N, int STAGE, int WARPS, int STAGES>
TILECC_KERNEL(num_warps = WARPS, num_stages = STAGES)
void tut_attn_fwd(const half* Q, const half* K, const half* V, float sm_scale, float* M, half* Out, int64_t stride_qz,
                  int64_t stride_qh, int64_t stride_qm, int64_t stride_qk, int64_t stride_kz, int64_t stride_kh,
                  int64_t stride_kn, int64_t stride_kk, int64_t stride_vz, int64_t stride_vh, int64_t stride_vk,
                  int64_t stride_vn, int64_t stride_oz, int64_t stride_oh, int64_t stride_om, int64_t stride_on, int H,
                  int N_CTX) {
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
  store(M + off_hz * N_CTX + offs_m, m_i, offs_m < N_CTX);
  store(O_block_ptr, cast<half>(acc));
}

template void tut_attn_fwd<64, 128, 128, 1, 8, 3>(const half*, const half*, const half*, float, float*, half*, int64_t,
                                                  int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                                  int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int);
template void tut_attn_fwd<128, 128, 128, 3, 8, 3>(const half*, const half*, const half*, float, float*, half*, int64_t,
                                                   int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                                   int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int);
// CHECK-LABEL: kernel tut_attn_fwd_64_128_128_1_8_3_tma (tut_attn_fwd<64, 128, 128, 1, 8, 3>)
// CHECK: not warp-specialised: two programs fit on an SM (warp_specialize = true asks for it all the same)
// CHECK: store at line 93: 1 x f32 = 4 bytes per access (the address is only known to be a multiple of 4 bytes)
// CHECK-NOT: layout conversion at line
// CHECK: shared memory: 114720 bytes
// CHECK-NEXT: k_ring at 0, 49152 bytes
// CHECK-NEXT: store_cvt_smem at 0, 18432 bytes ([128][64] f16, 144-byte rows): layout conversion for the store at line 94
// CHECK-NEXT: v_ring at 49152
// CHECK-NEXT: q_smem at 98304
// CHECK-NEXT: start_n_full at 114688
// CHECK-NEXT: q_full at 114712
// CHECK-NEXT: dots:
// CHECK-LABEL: kernel tut_attn_fwd_128_128_128_3_8_3_tma (tut_attn_fwd<128, 128, 128, 3, 8, 3>)
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; the loop's two dots overlap across iterations{{$}}
// CHECK: store at line 93: 1 x f32 = 4 bytes per access (the address is only known to be a multiple of 4 bytes)
// CHECK: shared memory: 229440 bytes
// CHECK-NEXT: k_ring at 0, 98304 bytes ({{.*}}): box copied by TMA at line 30
// CHECK-NEXT: store_cvt_smem at 0
// CHECK-NEXT: v_ring at 98304
// CHECK-NEXT: q_smem at 196608, 32768 bytes ({{.*}}): box copied by TMA at line 84
// CHECK-NEXT: start_n_full at 229376
// CHECK-NEXT: start_n_empty at 229400
// CHECK-NEXT: q_full at 229424, 8 bytes (1 mbarrier): the TMA box at line 84 has landed (filled once: waited on with parity 0)
// CHECK-NEXT: dots:

// At D = 64 two programs fit on an SM: not warp-specialised, the two loops are chained instead
// (the off-band loop's last iterations copy the band's first boxes into the one ring), and the
// band's `qk * qk_scale + where(mask, 0, -1e6)` skips its mask where it holds everywhere.
template void tut_attn_fwd<64, 128, 128, 3, 8, 3>(const half*, const half*, const half*, float, float*, half*, int64_t,
                                                  int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                                  int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int);
// CHECK-LABEL: kernel tut_attn_fwd_64_128_128_3_8_3_tma (tut_attn_fwd<64, 128, 128, 3, 8, 3>)
// CHECK: not warp-specialised: two programs fit on an SM (warp_specialize = true asks for it all the same)
// CHECK-NEXT: one ring for 2 TMA loops in a row: each loop's last iterations copy the next loop's first boxes
// CHECK-NEXT: select (line 35): mask is true in every element: the select is skipped (a uniform test)
// CHECK: shared memory:
// CHECK-NEXT: k_ring at 0, 49152 bytes ({{.*}}): box copied by TMA at line 30
// CHECK-NEXT: store_cvt_smem at 0
// CHECK-NEXT: v_ring at 49152
// CHECK-NEXT: q_smem at 98304, 16384 bytes ({{.*}}): box copied by TMA at line 84
// CHECK-NEXT: start_n_full at
// CHECK-NEXT: q_full at
// CHECK-NEXT: dots:
