// Fourth user-style set (tests/corpus/user): backward kernels. Attention backward as Triton's tutorial 06 writes it (layout
// [BH, S, D] contiguous, M = log2-domain log-sum-exp, K pre-scaled by sm_scale / ln 2), separate
// ragged dK/dV and dQ kernels, layer-norm backward with partial dW/dB buffers.
#include <tilecc/tile.hpp>
using namespace tilecc;

// 1. _attn_bwd_preprocess: Delta = rowsum(O * dO).
template <int BM, int D>
TILECC_KERNEL(num_warps = 4)
void attn_bwd_preprocess(const half* O, const half* DO, float* Delta, int S) {
  const int off_m = program_id(0) * BM;
  const int64_t bh = program_id(1);
  auto offs_m = off_m + arange<BM>();
  auto offs_n = arange<D>();
  auto o = load(O + bh * S * D + col(offs_m) * D + row(offs_n), col(offs_m < S), 0.0f);
  auto d = cast<float>(load(DO + bh * S * D + col(offs_m) * D + row(offs_n), col(offs_m < S), 0.0f));
  auto delta = sum<1>(cast<float>(o) * d);
  store(Delta + bh * S + offs_m, delta, offs_m < S);
}
template void attn_bwd_preprocess<128, 64>(const half*, const half*, float*, int);
template void attn_bwd_preprocess<64, 128>(const half*, const half*, float*, int);

// Triton's _attn_bwd_dkdv: in-out dk, dv; transposed Q pointer tile, pointers advanced per step.
template <int BM1, int BN1, int D, bool MASK>
void bwd_dkdv(tile<float, BN1, D>& dk, tile<float, BN1, D>& dv, const half* Q, const tile<half, BN1, D>& k,
              const tile<half, BN1, D>& v, const half* DO, const float* M, const float* Dl, int start_n, int start_m,
              int num_steps) {
  auto offs_m = start_m + arange<BM1>();
  auto offs_n = start_n + arange<BN1>();
  auto offs_k = arange<D>();
  auto qT_ptrs = Q + row(offs_m) * D + col(offs_k);   // [D, BM1]
  auto do_ptrs = DO + col(offs_m) * D + row(offs_k);  // [BM1, D]
  int curr_m = start_m;
  const int step_m = BM1;
  for (int blk = 0; blk < num_steps; ++blk) {
    auto qT = load(qT_ptrs);
    offs_m = curr_m + arange<BM1>();
    auto m = load(M + offs_m);
    auto qkT = dot(k, qT);
    auto pT = exp2(qkT - row(m));
    if constexpr (MASK) {
      auto mask = row(offs_m) >= col(offs_n);
      pT = where(mask, pT, 0.0f);
    }
    auto d_o = load(do_ptrs);
    auto ppT = cast<half>(pT);
    dv = dot(ppT, d_o, dv);
    auto Di = load(Dl + offs_m);
    auto dpT = dot(v, trans(d_o));
    auto dsT = cast<half>(pT * (dpT - row(Di)));
    dk = dot(dsT, trans(qT), dk);
    curr_m += step_m;
    qT_ptrs += step_m * D;
    do_ptrs += step_m * D;
  }
}

// Triton's _attn_bwd_dq.
template <int BM2, int BN2, int D, bool MASK>
void bwd_dq(tile<float, BM2, D>& dq, const tile<half, BM2, D>& q, const half* K, const half* V,
            const tile<half, BM2, D>& d_o, const tile<float, BM2, 1>& m, const float* Dl, int start_m, int start_n,
            int num_steps) {
  auto offs_m = start_m + arange<BM2>();
  auto offs_n = start_n + arange<BN2>();
  auto offs_k = arange<D>();
  auto kT_ptrs = K + row(offs_n) * D + col(offs_k);   // [D, BN2]
  auto vT_ptrs = V + row(offs_n) * D + col(offs_k);
  auto Di = load(Dl + offs_m);
  int curr_n = start_n;
  const int step_n = BN2;
  for (int blk = 0; blk < num_steps; ++blk) {
    auto kT = load(kT_ptrs);
    auto vT = load(vT_ptrs);
    auto qk = dot(q, kT);
    auto p = exp2(qk - m);
    if constexpr (MASK) {
      offs_n = curr_n + arange<BN2>();
      p = where(col(offs_m) >= row(offs_n), p, 0.0f);
    }
    auto dp = dot(d_o, vT);
    auto ds = cast<half>(p * (dp - col(Di)));
    dq = dot(ds, trans(kT), dq);
    curr_n += step_n;
    kT_ptrs += step_n * D;
    vT_ptrs += step_n * D;
  }
}

// 2. _attn_bwd (causal, fused dK/dV then dQ, as tutorial 06). S must be a multiple of BN1 and BM2.
template <int BM1, int BN1, int BM2, int BN2, int SLICE, int D>
TILECC_KERNEL(num_warps = 4, num_stages = 5)
void attn_bwd(const half* Q, const half* K, const half* V, float sm_scale, const half* DO, half* DQ, half* DK,
              half* DV, const float* M, const float* Dl, int S) {
  constexpr float LN2 = 0.6931471824645996f;
  const int64_t bhid = program_id(2);
  const int64_t adj = bhid * S * D;
  const int pid = program_id(0);
  Q += adj; K += adj; V += adj; DO += adj; DQ += adj; DK += adj; DV += adj;
  M += bhid * S;
  Dl += bhid * S;
  auto offs_k = arange<D>();
  int start_n = pid * BN1;
  int start_m = start_n;
  constexpr int MASK_BM1 = BM1 / SLICE;
  auto offs_n = start_n + arange<BN1>();
  auto dv = zeros<float, BN1, D>();
  auto dk = zeros<float, BN1, D>();
  auto k = load(K + col(offs_n) * D + row(offs_k));
  auto v = load(V + col(offs_n) * D + row(offs_k));
  int num_steps = BN1 / MASK_BM1;
  bwd_dkdv<MASK_BM1, BN1, D, true>(dk, dv, Q, k, v, DO, M, Dl, start_n, start_m, num_steps);
  start_m += num_steps * MASK_BM1;
  num_steps = (S - start_m) / BM1;
  bwd_dkdv<BM1, BN1, D, false>(dk, dv, Q, k, v, DO, M, Dl, start_n, start_m, num_steps);
  store(DV + col(offs_n) * D + row(offs_k), cast<half>(dv));
  dk = dk * sm_scale;
  store(DK + col(offs_n) * D + row(offs_k), cast<half>(dk));

  // dQ
  start_m = pid * BM2;
  int end_n = start_m + BM2;
  constexpr int MASK_BN2 = BN2 / SLICE;
  auto offs_m = start_m + arange<BM2>();
  auto q = load(Q + col(offs_m) * D + row(offs_k));
  auto dq = zeros<float, BM2, D>();
  auto d_o = load(DO + col(offs_m) * D + row(offs_k));
  auto m = col(load(M + offs_m));
  num_steps = BM2 / MASK_BN2;
  bwd_dq<BM2, MASK_BN2, D, true>(dq, q, K, V, d_o, m, Dl, start_m, end_n - num_steps * MASK_BN2, num_steps);
  end_n -= num_steps * MASK_BN2;
  num_steps = end_n / BN2;
  bwd_dq<BM2, BN2, D, false>(dq, q, K, V, d_o, m, Dl, start_m, end_n - num_steps * BN2, num_steps);
  dq = dq * LN2;
  store(DQ + col(offs_m) * D + row(offs_k), cast<half>(dq));
}
template void attn_bwd<32, 128, 128, 32, 2, 64>(const half*, const half*, const half*, float, const half*, half*, half*,
                                                half*, const float*, const float*, int);
template void attn_bwd<64, 64, 64, 64, 2, 128>(const half*, const half*, const half*, float, const half*, half*, half*,
                                               half*, const float*, const float*, int);

// 3. Separate dK/dV kernel, non-causal, ragged S (masks on every load), bf16, K not pre-scaled.
template <int BM, int BN, int D>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void attn_bwd_dkdv_ragged(const bfloat16* Q, const bfloat16* K, const bfloat16* V, const bfloat16* DO, const float* M,
                          const float* Dl, float* DK, float* DV, int S, float sm_scale) {
  const int64_t bh = program_id(1);
  const int start_n = program_id(0) * BN;
  const int64_t base = bh * S * D;
  const float qk_scale = sm_scale * 1.44269504f;
  auto offs_n = start_n + arange<BN>();
  auto offs_d = arange<D>();
  auto nmask = col(offs_n < S);
  auto k = load(K + base + col(offs_n) * D + row(offs_d), nmask, 0.0f);
  auto v = load(V + base + col(offs_n) * D + row(offs_d), nmask, 0.0f);
  auto dk = zeros<float, BN, D>();
  auto dv = zeros<float, BN, D>();
  for (int m0 = 0; m0 < S; m0 += BM) {
    auto offs_m = m0 + arange<BM>();
    auto mm = offs_m < S;
    auto q = load(Q + base + col(offs_m) * D + row(offs_d), col(mm), 0.0f);
    auto d_o = load(DO + base + col(offs_m) * D + row(offs_d), col(mm), 0.0f);
    auto lse = load(M + bh * S + offs_m, mm, INFINITY);
    auto di = load(Dl + bh * S + offs_m, mm, 0.0f);
    auto sT = dot(k, trans(q)) * qk_scale;            // [BN, BM]
    auto pT = where(row(mm) & nmask, exp2(sT - row(lse)), 0.0f);
    dv = dot(cast<bfloat16>(pT), d_o, dv);
    auto dpT = dot(v, trans(d_o));
    auto dsT = pT * (dpT - row(di));
    dk = dot(cast<bfloat16>(dsT), q, dk);
  }
  store(DK + base + col(offs_n) * D + row(offs_d), dk * sm_scale, nmask);
  store(DV + base + col(offs_n) * D + row(offs_d), dv, nmask);
}
template void attn_bwd_dkdv_ragged<64, 64, 128>(const bfloat16*, const bfloat16*, const bfloat16*, const bfloat16*,
                                                const float*, const float*, float*, float*, int, float);
template void attn_bwd_dkdv_ragged<32, 64, 64>(const bfloat16*, const bfloat16*, const bfloat16*, const bfloat16*,
                                               const float*, const float*, float*, float*, int, float);

// 4. Separate dQ kernel, causal, ragged S: key loop bounded by the diagonal.
template <int BM, int BN, int D>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void attn_bwd_dq_ragged(const bfloat16* Q, const bfloat16* K, const bfloat16* V, const bfloat16* DO, const float* M,
                        const float* Dl, float* DQ, int S, float sm_scale) {
  const int64_t bh = program_id(1);
  const int start_m = program_id(0) * BM;
  const int64_t base = bh * S * D;
  const float qk_scale = sm_scale * 1.44269504f;
  auto offs_m = start_m + arange<BM>();
  auto offs_d = arange<D>();
  auto mm = offs_m < S;
  auto q = load(Q + base + col(offs_m) * D + row(offs_d), col(mm), 0.0f);
  auto d_o = load(DO + base + col(offs_m) * D + row(offs_d), col(mm), 0.0f);
  auto lse = load(M + bh * S + offs_m, mm, 0.0f);
  auto di = load(Dl + bh * S + offs_m, mm, 0.0f);
  auto dq = zeros<float, BM, D>();
  const int hi = tilecc::min(S, start_m + BM);
  for (int n0 = 0; n0 < hi; n0 += BN) {
    auto offs_n = n0 + arange<BN>();
    auto nm = offs_n < S;
    auto k = load(K + base + col(offs_n) * D + row(offs_d), col(nm), 0.0f);
    auto v = load(V + base + col(offs_n) * D + row(offs_d), col(nm), 0.0f);
    auto s = dot(q, trans(k)) * qk_scale;
    auto ok = (col(offs_m) >= row(offs_n)) & row(nm) & col(mm);
    auto p = where(ok, exp2(s - col(lse)), 0.0f);
    auto dp = dot(d_o, trans(v));
    auto ds = p * (dp - col(di));
    dq = dot(cast<bfloat16>(ds), k, dq);
  }
  store(DQ + base + col(offs_m) * D + row(offs_d), dq * sm_scale, col(mm));
}
template void attn_bwd_dq_ragged<64, 32, 128>(const bfloat16*, const bfloat16*, const bfloat16*, const bfloat16*,
                                              const float*, const float*, float*, int, float);
template void attn_bwd_dq_ragged<128, 64, 64>(const bfloat16*, const bfloat16*, const bfloat16*, const bfloat16*,
                                              const float*, const float*, float*, int, float);

// 5. Layer-norm backward dx, with per-program partial dW / dB rows (no locks: a grid-stride loop
//    over rows, partial sums in registers, stored to row program_id(0) of the partial buffers).
template <int BLOCK_N>
TILECC_KERNEL(num_warps = BLOCK_N >= 2048 ? 8 : 4)
void ln_bwd_dx_partial(const half* X, const half* DY, const half* W, const float* Mean, const float* Rstd, half* DX,
                       float* DWp, float* DBp, int M, int N) {
  const int pid = program_id(0);
  const int G = num_programs(0);
  auto cols = arange<BLOCK_N>();
  auto mask = cols < N;
  auto w = cast<float>(load(W + cols, mask, 0.0f));
  auto dw_acc = zeros<float, BLOCK_N>();
  auto db_acc = zeros<float, BLOCK_N>();
  for (int r = pid; r < M; r += G) {
    const int64_t off = int64_t(r) * N;
    auto x = cast<float>(load(X + off + cols, mask, 0.0f));
    auto dy = cast<float>(load(DY + off + cols, mask, 0.0f));
    const float mean = load(Mean + r);
    const float rstd = load(Rstd + r);
    auto xhat = where(mask, (x - mean) * rstd, 0.0f);
    auto wdy = where(mask, w * dy, 0.0f);
    const float c1 = sum(xhat * wdy) / N;
    const float c2 = sum(wdy) / N;
    auto dx = (wdy - (xhat * c1 + c2)) * rstd;
    store(DX + off + cols, cast<half>(dx), mask);
    dw_acc += dy * xhat;
    db_acc += dy;
  }
  store(DWp + int64_t(pid) * N + cols, dw_acc, mask);
  store(DBp + int64_t(pid) * N + cols, db_acc, mask);
}
template void ln_bwd_dx_partial<1024>(const half*, const half*, const half*, const float*, const float*, half*, float*,
                                      float*, int, int);
template void ln_bwd_dx_partial<4096>(const half*, const half*, const half*, const float*, const float*, half*, float*,
                                      float*, int, int);

// 6. Column sums of the partial buffers: dW = sum over G rows (Triton's _layer_norm_bwd_dwdb).
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void ln_bwd_dwdb(const float* DWp, const float* DBp, half* FINAL_DW, half* FINAL_DB, int G, int N) {
  const int pid = program_id(0);
  auto cols = pid * BN + arange<BN>();
  auto dw = zeros<float, BM, BN>();
  auto db = zeros<float, BM, BN>();
  for (int i = 0; i < G; i += BM) {
    auto rows = i + arange<BM>();
    auto mask = col(rows < G) & row(cols < N);
    auto offs = col(rows) * N + row(cols);
    dw += load(DWp + offs, mask, 0.0f);
    db += load(DBp + offs, mask, 0.0f);
  }
  store(FINAL_DW + cols, cast<half>(sum<0>(dw)), cols < N);
  store(FINAL_DB + cols, cast<half>(sum<0>(db)), cols < N);
}
template void ln_bwd_dwdb<32, 128>(const float*, const float*, half*, half*, int, int);
template void ln_bwd_dwdb<8, 512>(const float*, const float*, half*, half*, int, int);
