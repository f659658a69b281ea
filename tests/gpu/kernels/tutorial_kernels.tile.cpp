// Triton's tutorials as users port them (tests/bench/heldout/tutorials.tile.cpp), on the GPU
// against the host twin: the GEMM with its leaky-ReLU epilogue over rows wrapped `% M` (a TMA
// variant: the select keeps the wrapped rows in their rows, masked at the store), and the fused
// attention, causal as two loops (off-band keys, then the diagonal band) and not, with M = m_i +
// log2(l_i) stored from the accumulator's rows. Unlike the tutorial, keys past N_CTX are masked in
// the non-causal stage. The causal kernel also with warp_specialize = true: its two TMA loops
// then read one ring in turn, fed by one producer (where two programs fit on an SM, as here, the
// default leaves it unspecialised).
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int M, int N>
tile<float, M, N> leaky_relu(tile<float, M, N> x) {
  return where(x >= 0, x, 0.01f * x);
}

// Tutorial 03.
template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K, int GROUP_SIZE_M, int WARPS, int STAGES,
          bool ACTIVATION>
TILECC_KERNEL(num_warps = WARPS, num_stages = STAGES)
void tut_matmul(const T* a_ptr, const T* b_ptr, T* c_ptr, int M, int N, int K, int stride_am, int stride_ak,
                int stride_bk, int stride_bn, int stride_cm, int stride_cn) {
  const int pid = program_id(0);
  const int num_pid_m = cdiv(M, BLOCK_SIZE_M);
  const int num_pid_n = cdiv(N, BLOCK_SIZE_N);
  const int num_pid_in_group = GROUP_SIZE_M * num_pid_n;
  const int group_id = pid / num_pid_in_group;
  const int first_pid_m = group_id * GROUP_SIZE_M;
  const int group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M);
  const int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
  const int pid_n = (pid % num_pid_in_group) / group_size_m;

  auto offs_am = (pid_m * BLOCK_SIZE_M + arange<BLOCK_SIZE_M>()) % M;
  auto offs_bn = (pid_n * BLOCK_SIZE_N + arange<BLOCK_SIZE_N>()) % N;
  auto offs_k = arange<BLOCK_SIZE_K>();
  auto a_ptrs = a_ptr + (col(offs_am) * stride_am + row(offs_k) * stride_ak);
  auto b_ptrs = b_ptr + (col(offs_k) * stride_bk + row(offs_bn) * stride_bn);

  auto accumulator = zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  for (int k = 0; k < cdiv(K, BLOCK_SIZE_K); ++k) {
    auto a = load(a_ptrs, row(offs_k) < K - k * BLOCK_SIZE_K, 0.0f);
    auto b = load(b_ptrs, col(offs_k) < K - k * BLOCK_SIZE_K, 0.0f);
    accumulator = dot(a, b, accumulator);
    a_ptrs += BLOCK_SIZE_K * stride_ak;
    b_ptrs += BLOCK_SIZE_K * stride_bk;
  }
  if constexpr (ACTIVATION) accumulator = leaky_relu(accumulator);
  auto c = cast<T>(accumulator);

  auto offs_cm = pid_m * BLOCK_SIZE_M + arange<BLOCK_SIZE_M>();
  auto offs_cn = pid_n * BLOCK_SIZE_N + arange<BLOCK_SIZE_N>();
  auto c_ptrs = c_ptr + stride_cm * col(offs_cm) + stride_cn * row(offs_cn);
  auto c_mask = (col(offs_cm) < M) & (row(offs_cn) < N);
  store(c_ptrs, c, c_mask);
}

// Tutorial 06's inner loop, as the tutorial writes it (STAGE 1: off-band keys of a causal
// program, 2: the diagonal band, 3: every key).
template <int BLOCK_M, int HEAD_DIM, int BLOCK_N, int STAGE, class T, class KBP, class VBP>
void attn_fwd_inner(tile<float, BLOCK_M, HEAD_DIM>& acc, tile<float, BLOCK_M>& l_i, tile<float, BLOCK_M>& m_i,
                    const tile<T, BLOCK_M, HEAD_DIM>& q, KBP K_block_ptr, VBP V_block_ptr, int start_m,
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
      if constexpr (STAGE == 3) qk = where(start_n + row(offs_n) < N_CTX, qk, -1.0e6f);  // ragged N_CTX
      m_ij = maximum(m_i, max<1>(qk) * qk_scale);
      qk = qk * qk_scale - col(m_ij);
    }
    auto p = exp2(qk);
    auto l_ij = sum<1>(p);
    auto alpha = exp2(m_i - m_ij);
    l_i = l_i * alpha + l_ij;
    acc = acc * col(alpha);
    auto v = load(V_block_ptr);
    acc = dot(cast<T>(p), v, acc);
    m_i = m_ij;
    V_block_ptr = advance(V_block_ptr, {BLOCK_N, 0});
    K_block_ptr = advance(K_block_ptr, {0, BLOCK_N});
  }
}

// Tutorial 09's persistent form: the programs launched walk the output tiles, the K loop nested.
// On sm_90a both roles of a warp-specialised kernel run the tile loop, the ring's position
// carried from one tile to the next (by default: shared memory leaves one program per SM).
template <class T, int BM, int BN, int BK, int GROUP_M, int WARPS, int STAGES>
TILECC_KERNEL(num_warps = WARPS, num_stages = STAGES)
void tut_matmul_persistent(const T* a_ptr, const T* b_ptr, T* c_ptr, int M, int N, int K, int stride_am, int stride_bk,
                           int stride_cm) {
  const int start_pid = program_id(0);
  const int num_pid_m = cdiv(M, BM), num_pid_n = cdiv(N, BN);
  const int num_tiles = num_pid_m * num_pid_n;
  const int num_pid_in_group = GROUP_M * num_pid_n;
  const int NUM_SMS = num_programs(0);
  for (int tile_id = start_pid; tile_id < num_tiles; tile_id += NUM_SMS) {
    const int group_id = tile_id / num_pid_in_group;
    const int first_pid_m = group_id * GROUP_M;
    const int group_size_m = min(num_pid_m - first_pid_m, GROUP_M);
    const int pid_m = first_pid_m + (tile_id % group_size_m);
    const int pid_n = (tile_id % num_pid_in_group) / group_size_m;
    auto offs_am = pid_m * BM + arange<BM>();
    auto offs_bn = pid_n * BN + arange<BN>();
    auto accumulator = zeros<float, BM, BN>();
    for (int ki = 0; ki < cdiv(K, BK); ++ki) {
      auto offs_k = ki * BK + arange<BK>();
      auto a = load(a_ptr + col(offs_am) * stride_am + row(offs_k), col(offs_am < M) & row(offs_k < K), 0.0f);
      auto b = load(b_ptr + col(offs_k) * stride_bk + row(offs_bn), col(offs_k < K) & row(offs_bn < N), 0.0f);
      accumulator = dot(a, b, accumulator);
    }
    store(c_ptr + col(offs_am) * stride_cm + row(offs_bn), cast<T>(accumulator), col(offs_am < M) & row(offs_bn < N));
  }
}

// Tutorial 06's forward kernel (STAGE 1: not causal, 3: causal); K read through a transposed
// block pointer, M = m_i + log2(l_i) stored for the backward pass.
template <int HEAD_DIM, int BLOCK_M, int BLOCK_N, int STAGE, int WARPS, int STAGES, bool WS>
TILECC_KERNEL(num_warps = WARPS, num_stages = STAGES, warp_specialize = WS)
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

// Tutorial 06's persistent form (Triton's _attn_fwd_persist): the programs launched walk the
// (query block, head) tiles, the tile index carried by the loop (`tile_idx += num_progs`). On
// sm_90a, with warp_specialize = true, both roles run that loop: the producer carries the tile
// index too, copies each tile's queries into one buffer once the consumers release it, and the
// causal kernel's two key loops read one ring from tile to tile. T: half or bfloat16 (then P is
// cast to bfloat16 for its dot, and the wgmma are bf16's).
template <class T, int HEAD_DIM, int BLOCK_M, int BLOCK_N, int STAGE, int WARPS, int STAGES>
TILECC_KERNEL(num_warps = WARPS, num_stages = STAGES, warp_specialize = true)
void tut_attn_persist(const T* Q, const T* K, const T* V, float sm_scale, float* M, T* Out, int Z, int H, int N_CTX) {
  const int n_tile_num = cdiv(N_CTX, BLOCK_M);
  const int prog_id = program_id(0);
  const int num_progs = num_programs(0);
  const int total_tiles = n_tile_num * Z * H;
  int tiles_per_sm = total_tiles / num_progs;
  if (prog_id < total_tiles % num_progs) tiles_per_sm += 1;
  int tile_idx = prog_id;
  const int64_t stride_m = HEAD_DIM, stride_h = int64_t(N_CTX) * HEAD_DIM;
  for (int i = 0; i < tiles_per_sm; ++i) {
    const int start_m = tile_idx % n_tile_num;
    const int off_hz = tile_idx / n_tile_num;
    const int64_t offset = off_hz * stride_h;
    auto Q_block_ptr = make_block_ptr<BLOCK_M, HEAD_DIM>(Q + offset, {N_CTX, HEAD_DIM}, {stride_m, int64_t(1)},
                                                         {start_m * BLOCK_M, 0});
    auto V_block_ptr = make_block_ptr<BLOCK_N, HEAD_DIM>(V + offset, {N_CTX, HEAD_DIM}, {stride_m, int64_t(1)}, {0, 0});
    auto K_block_ptr = make_block_ptr<HEAD_DIM, BLOCK_N>(K + offset, {HEAD_DIM, N_CTX}, {int64_t(1), stride_m}, {0, 0});
    auto O_block_ptr = make_block_ptr<BLOCK_M, HEAD_DIM>(Out + offset, {N_CTX, HEAD_DIM}, {stride_m, int64_t(1)},
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
      attn_fwd_inner<BLOCK_M, HEAD_DIM, BLOCK_N, 2>(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, qk_scale,
                                                    offs_m, offs_n, N_CTX);
    m_i += log2(l_i);
    acc = acc / col(l_i);
    store(M + off_hz * N_CTX + offs_m, m_i, offs_m < N_CTX);
    store(O_block_ptr, cast<T>(acc));
    tile_idx += num_progs;
  }
}

template void tut_matmul<half, 128, 256, 64, 8, 8, 3, true>(const half*, const half*, half*, int, int, int, int, int, int, int,
                                                           int, int);
template void tut_attn_fwd<64, 128, 64, 3, 8, 3, false>(const half*, const half*, const half*, float, float*, half*, int64_t,
                                                 int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                                 int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int);
template void tut_attn_fwd<64, 128, 64, 3, 8, 3, true>(const half*, const half*, const half*, float, float*, half*, int64_t,
                                                 int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                                 int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int);
template void tut_attn_fwd<64, 128, 64, 1, 8, 3, false>(const half*, const half*, const half*, float, float*, half*, int64_t,
                                                 int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                                 int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int);
template void tut_matmul_persistent<half, 128, 256, 64, 8, 8, 3>(const half*, const half*, half*, int, int, int, int, int,
                                                                 int);
template void tut_matmul_persistent<bfloat16, 128, 128, 64, 8, 8, 4>(const bfloat16*, const bfloat16*, bfloat16*, int, int,
                                                                     int, int, int, int);
template void tut_attn_persist<half, 64, 128, 64, 3, 8, 3>(const half*, const half*, const half*, float, float*, half*, int,
                                                          int, int);
template void tut_attn_persist<half, 128, 128, 128, 3, 8, 3>(const half*, const half*, const half*, float, float*, half*, int,
                                                            int, int);
template void tut_attn_persist<bfloat16, 64, 128, 64, 3, 8, 3>(const bfloat16*, const bfloat16*, const bfloat16*, float, float*,
                                                              bfloat16*, int, int, int);
