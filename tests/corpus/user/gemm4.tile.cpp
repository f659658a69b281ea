// Fourth user-style set (tests/corpus/user): GEMM-shaped kernels (MoE, implicit-GEMM convolution, broadcast batches, odd strides, epilogues).
#include <tilecc/tile.hpp>
using namespace tilecc;

// 10. MoE grouped GEMM over expert-sorted rows: each program reads its expert id and row start from
//     index tensors (tile_expert[t], tile_row[t]); rows end at expert_off[e + 1]. W is [E, K, N].
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void moe_grouped(const bfloat16* x, const bfloat16* W, const int* tile_expert, const int* tile_row,
                 const int* expert_off, bfloat16* out, int num_tiles, int K, int N) {
  const int t = program_id(0);
  if (t >= num_tiles) return;
  const int e = load(tile_expert + t);
  const int r0 = load(tile_row + t);
  const int rend = load(expert_off + e + 1);
  auto rm = r0 + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  const bfloat16* w = W + int64_t(e) * K * N;
  auto acc = zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto a = load(x + col(cast<int64_t>(rm)) * K + row(k0 + rk), col(rm < rend) & row(k0 + rk < K), 0.0f);
    auto b = load(w + col(k0 + rk) * N + row(rn), col(k0 + rk < K) & row(rn < N), 0.0f);
    acc = dot(a, b, acc);
  }
  store(out + col(cast<int64_t>(rm)) * N + row(rn), cast<bfloat16>(acc), col(rm < rend) & row(rn < N));
}
template void moe_grouped<64, 64, 32>(const bfloat16*, const bfloat16*, const int*, const int*, const int*, bfloat16*,
                                      int, int, int);
template void moe_grouped<128, 128, 64>(const bfloat16*, const bfloat16*, const int*, const int*, const int*,
                                        bfloat16*, int, int, int);

// 11. vLLM-style fused MoE: padded sorted token ids per BM block, one expert id per block, rows of A
//     gathered by token / top_k, routed weight multiplied, rows of C scattered. B is [E, N, K].
template <int BM, int BN, int BK, bool MUL_W>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void fused_moe(const half* a, const half* b, half* c, const float* topk_weights, const int* sorted_token_ids,
               const int* expert_ids, const int* num_tokens_post_padded, int N, int K, int num_valid_tokens,
               int top_k) {
  const int pid_m = program_id(0);
  const int pid_n = program_id(1);
  const int ntpp = load(num_tokens_post_padded);
  if (pid_m * BM >= ntpp) return;
  auto offs_token = load(sorted_token_ids + pid_m * BM + arange<BM>());
  auto token_mask = offs_token < num_valid_tokens;
  const int64_t off_expert = load(expert_ids + pid_m);
  auto offs_bn = pid_n * BN + arange<BN>();
  auto offs_k = arange<BK>();
  auto a_ptrs = a + col(cast<int64_t>(offs_token / top_k)) * K + row(offs_k);
  auto b_ptrs = b + off_expert * N * K + row(cast<int64_t>(offs_bn)) * K + col(offs_k);
  auto acc = zeros<float, BM, BN>();
  const int ksteps = cdiv(K, BK);
  for (int kk = 0; kk < ksteps; ++kk) {
    auto av = load(a_ptrs, col(token_mask) & row(offs_k < K - kk * BK), 0.0f);
    auto bv = load(b_ptrs, col(offs_k < K - kk * BK) & row(offs_bn < N), 0.0f);
    acc = dot(av, bv, acc);
    a_ptrs += BK;
    b_ptrs += BK;
  }
  if constexpr (MUL_W) {
    auto wt = load(topk_weights + offs_token, token_mask, 0.0f);
    acc = acc * col(wt);
  }
  auto c_ptrs = c + col(cast<int64_t>(offs_token)) * N + row(offs_bn);
  store(c_ptrs, cast<half>(acc), col(token_mask) & row(offs_bn < N));
}
template void fused_moe<64, 64, 32, true>(const half*, const half*, half*, const float*, const int*, const int*,
                                          const int*, int, int, int, int);
template void fused_moe<16, 64, 64, false>(const half*, const half*, half*, const float*, const int*, const int*,
                                           const int*, int, int, int, int);

// 12. NHWC 3x3 convolution, stride 1, padding 1, as implicit GEMM over (tap, channel block), bias + ReLU.
//     x [Nb, H, W, C], w [F, 3, 3, C], out [Nb, H, W, F].
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void conv3x3_nhwc(const half* x, const half* w, const float* bias, half* out, int Nb, int H, int Wd, int C, int F) {
  const int M = Nb * H * Wd;
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto img = rm / (H * Wd);
  auto oy = rm % (H * Wd) / Wd;
  auto ox = rm % Wd;
  const int blocks = cdiv(C, BK);
  const int Kw = 9 * C;
  auto acc = zeros<float, BM, BN>();
  for (int kb = 0; kb < 9 * blocks; ++kb) {
    const int tap = kb / blocks, c0 = (kb % blocks) * BK;
    auto iy = oy + (tap / 3 - 1);
    auto ix = ox + (tap % 3 - 1);
    auto ok = (rm < M) & (iy >= 0) & (iy < H) & (ix >= 0) & (ix < Wd);
    auto ch = c0 + arange<BK>();
    auto av = load(x + col(cast<int64_t>((img * H + iy) * Wd + ix) * C) + row(ch), col(ok) & row(ch < C), 0.0f);
    auto bv = load(w + cast<int64_t>(row(rn)) * Kw + col(tap * C + ch), col(ch < C) & row(rn < F), 0.0f);
    acc = dot(av, bv, acc);
  }
  auto bb = load(bias + rn, rn < F, 0.0f);
  auto y = maximum(acc + row(bb), 0.0f);
  store(out + col(cast<int64_t>(rm)) * F + row(rn), cast<half>(y), col(rm < M) & row(rn < F));
}
template void conv3x3_nhwc<64, 64, 32>(const half*, const half*, const float*, half*, int, int, int, int, int);
template void conv3x3_nhwc<128, 64, 64>(const half*, const half*, const float*, half*, int, int, int, int, int);

// 13. Strided (stride 2, pad 1) 3x3 NHWC convolution over a flat K = 9 C axis: every column of the
//     A tile decomposes its k into (tap, channel), so the pointer tile and the padding mask are 2-D.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void conv3x3_s2_flatk(const bfloat16* x, const bfloat16* w, float* out, int Nb, int H, int Wd, int C, int F, int Ho,
                      int Wo) {
  const int M = Nb * Ho * Wo;
  const int Kw = 9 * C;
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto n = rm / (Ho * Wo);
  auto oy = (rm / Wo) % Ho;
  auto ox = rm % Wo;
  auto acc = zeros<float, BM, BN>();
  for (int k0 = 0; k0 < Kw; k0 += BK) {
    auto rk = k0 + arange<BK>();
    auto tap = rk / C;
    auto ch = rk % C;
    auto ky = tap / 3, kx = tap % 3;
    auto iy = col(oy * 2 - 1) + row(ky);
    auto ix = col(ox * 2 - 1) + row(kx);
    auto ok = col(rm < M) & row(rk < Kw) & (iy >= 0) & (iy < H) & (ix >= 0) & (ix < Wd);
    auto off = ((cast<int64_t>(col(n)) * H + iy) * Wd + ix) * C + row(ch);
    auto av = load(x + off, ok, 0.0f);
    auto bv = load(w + row(cast<int64_t>(rn)) * Kw + col(rk), col(rk < Kw) & row(rn < F), 0.0f);
    acc = dot(av, bv, acc);
  }
  store(out + col(cast<int64_t>(rm)) * F + row(rn), acc, col(rm < M) & row(rn < F));
}
template void conv3x3_s2_flatk<64, 64, 32>(const bfloat16*, const bfloat16*, float*, int, int, int, int, int, int,
                                           int);

// 14. Batched GEMM with run-time batch strides (0 = broadcast operand, e.g. shared weights).
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void bmm_strided(const half* a, const half* b, float* c, int M, int N, int K, int64_t sab, int64_t sbb, int64_t scb) {
  const int64_t z = program_id(1);
  const int grid_n = cdiv(N, BN);
  const int pid_m = program_id(0) / grid_n, pid_n = program_id(0) % grid_n;
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto pa = a + z * sab + col(rm) * K + row(rk);
  auto pb = b + z * sbb + col(rk) * N + row(rn);
  auto acc = zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto av = load(pa, col(rm < M) & row(k0 + rk < K), 0.0f);
    auto bv = load(pb, col(k0 + rk < K) & row(rn < N), 0.0f);
    acc = dot(av, bv, acc);
    pa += BK;
    pb += BK * N;
  }
  store(c + z * scb + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
template void bmm_strided<64, 64, 32>(const half*, const half*, float*, int, int, int, int64_t, int64_t, int64_t);
template void bmm_strided<128, 128, 64>(const half*, const half*, float*, int, int, int, int64_t, int64_t, int64_t);

// 15. GEMM with separate leading dimensions (odd ones allowed) and K not a multiple of 8.
template <class T, int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_ld(const T* a, const T* b, T* c, int M, int N, int K, int lda, int ldb, int ldc) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto acc = zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto rk = k0 + arange<BK>();
    auto av = load(a + col(rm) * lda + row(rk), col(rm < M) & row(rk < K), 0.0f);
    auto bv = load(b + col(rk) * ldb + row(rn), col(rk < K) & row(rn < N), 0.0f);
    acc = dot(av, bv, acc);
  }
  store(c + col(rm) * ldc + row(rn), cast<T>(acc), col(rm < M) & row(rn < N));
}
template void gemm_ld<half, 64, 64, 32>(const half*, const half*, half*, int, int, int, int, int, int);
template void gemm_ld<bfloat16, 128, 128, 64>(const bfloat16*, const bfloat16*, bfloat16*, int, int, int, int, int,
                                              int);

// 16. Block-pointer GEMM, grouped program order, epilogue: residual add, per-column scale, SiLU.
template <int BM, int BN, int BK, int GROUP>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_bp_epi(const bfloat16* a, const bfloat16* b, const bfloat16* res, const float* colscale, bfloat16* c, int M,
                 int N, int K) {
  const int pid = program_id(0);
  const int num_m = cdiv(M, BM), num_n = cdiv(N, BN);
  const int in_group = GROUP * num_n;
  const int gid = pid / in_group;
  const int first_m = gid * GROUP;
  const int gsize = tilecc::min(num_m - first_m, GROUP);
  const int pid_m = first_m + (pid % in_group) % gsize;
  const int pid_n = (pid % in_group) / gsize;
  auto pa = make_block_ptr<BM, BK>(a, {M, K}, {K, 1}, {pid_m * BM, 0});
  auto pb = make_block_ptr<BK, BN>(b, {K, N}, {N, 1}, {0, pid_n * BN});
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = dot(load(pa), load(pb), acc);
    pa = advance(pa, {0, BK});
    pb = advance(pb, {BK, 0});
  }
  auto pr = make_block_ptr<BM, BN>(res, {M, N}, {N, 1}, {pid_m * BM, pid_n * BN});
  auto rn = pid_n * BN + arange<BN>();
  auto sc = load(colscale + rn, rn < N, 0.0f);
  auto y = (acc + cast<float>(load(pr))) * row(sc);
  y = y * sigmoid(y);
  auto pc = make_block_ptr<BM, BN>(c, {M, N}, {N, 1}, {pid_m * BM, pid_n * BN});
  store(pc, cast<bfloat16>(y));
}
template void gemm_bp_epi<128, 128, 64, 8>(const bfloat16*, const bfloat16*, const bfloat16*, const float*, bfloat16*,
                                           int, int, int);
template void gemm_bp_epi<64, 128, 32, 4>(const bfloat16*, const bfloat16*, const bfloat16*, const float*, bfloat16*,
                                          int, int, int);

// 17. W8A8 GEMM: int8 x int8 -> int32, dequant with per-token and per-channel scales, bias, fp16 out.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void w8a8_gemm(const int8_t* a, const int8_t* b, const float* sa, const float* sb, const half* bias, half* c, int M,
               int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto acc = zeros<int, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto rk = k0 + arange<BK>();
    auto av = load(a + col(rm) * K + row(rk), col(rm < M) & row(rk < K), 0);
    auto bv = load(b + col(rk) + row(rn) * K, col(rk < K) & row(rn < N), 0);  // B stored [N, K]
    acc = dot(av, bv, acc);
  }
  auto y = cast<float>(acc) * col(load(sa + rm, rm < M, 0.0f)) * row(load(sb + rn, rn < N, 0.0f)) +
           row(cast<float>(load(bias + rn, rn < N, 0.0f)));
  store(c + col(rm) * N + row(rn), cast<half>(y), col(rm < M) & row(rn < N));
}
template void w8a8_gemm<64, 64, 64>(const int8_t*, const int8_t*, const float*, const float*, const half*, half*, int,
                                    int, int);
