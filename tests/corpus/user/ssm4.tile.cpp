// Fourth user-style set (tests/corpus/user): sequence-mixing kernels with dot + cumsum / chained dots in one loop.
#include <tilecc/tile.hpp>
using namespace tilecc;

// 7. Mamba-2 (SSD) chunked scan, one program per (P block, batch): within a chunk of L steps,
//    cs = cumsum(dt * A); Y = (C Bᵀ ∘ exp(cs_i - cs_j) [i >= j] ∘ dt_j) X + exp(cs) ∘ (C · state);
//    state = exp(cs_last) state + (B ∘ exp(cs_last - cs) dt)ᵀ X. x [Bt, T, P], dt [Bt, T], B/C [Bt, T, N].
template <class T, int L, int N, int BP>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void ssd_scan(const T* x, const float* dt, const T* Bm, const T* Cm, float* y, float A, int Tlen, int P) {
  const int64_t b = program_id(1);
  auto offs_p = program_id(0) * BP + arange<BP>();
  auto pm = offs_p < P;
  auto offs_n = arange<N>();
  auto li = arange<L>();
  auto causal = col(li) >= row(li);
  auto state = zeros<float, N, BP>();
  for (int c0 = 0; c0 < Tlen; c0 += L) {
    auto t = c0 + li;
    auto tm = t < Tlen;
    auto rows = b * Tlen + t;  // int64
    auto dtv = load(dt + rows, tm, 0.0f);
    auto a = dtv * A;
    auto cs = cumsum(a);
    const float cs_last = sum(a);
    auto xc = load(x + col(rows) * P + row(offs_p), col(tm) & row(pm), 0.0f);
    auto Bc = load(Bm + col(rows) * N + row(offs_n), col(tm), 0.0f);
    auto Cc = load(Cm + col(rows) * N + row(offs_n), col(tm), 0.0f);
    auto decay = where(causal, exp(col(cs) - row(cs)), 0.0f);
    auto cb = dot(Cc, trans(Bc));
    auto scores = cb * decay * row(dtv);
    auto yc = dot(cast<T>(scores), xc);
    yc += dot(Cc, cast<T>(state)) * col(exp(cs));
    store(y + col(rows) * P + row(offs_p), yc, col(tm) & row(pm));
    auto w = exp(cs_last - cs) * dtv;
    auto bw = cast<T>(cast<float>(Bc) * col(w));
    state = state * std::exp(cs_last) + dot(trans(bw), xc);
  }
}
template void ssd_scan<bfloat16, 64, 64, 64>(const bfloat16*, const float*, const bfloat16*, const bfloat16*, float*,
                                              float, int, int);
template void ssd_scan<float, 32, 16, 32>(const float*, const float*, const float*, const float*, float*, float, int,
                                          int);

// 8. Chunked causal linear attention (no decay): O = Q S_prev + causal(Q Kᵀ) V; S += Kᵀ V.
template <int C, int DK, int BV>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void linattn_chunk(const half* q, const half* k, const half* v, half* o, int T, int DV, float scale) {
  const int64_t bh = program_id(1);
  auto offs_v = program_id(0) * BV + arange<BV>();
  auto vm = offs_v < DV;
  auto offs_k = arange<DK>();
  auto ci = arange<C>();
  auto causal = col(ci) >= row(ci);
  auto S = zeros<float, DK, BV>();
  for (int c0 = 0; c0 < T; c0 += C) {
    auto t = c0 + ci;
    auto tm = t < T;
    auto qc = load(q + (bh * T + col(t)) * DK + row(offs_k), col(tm), 0.0f);
    auto kc = load(k + (bh * T + col(t)) * DK + row(offs_k), col(tm), 0.0f);
    auto vc = load(v + (bh * T + col(t)) * DV + row(offs_v), col(tm) & row(vm), 0.0f);
    auto s = where(causal, dot(qc, trans(kc)), 0.0f);
    auto oc = dot(qc, cast<half>(S));
    oc = dot(cast<half>(s), vc, oc);
    store(o + (bh * T + col(t)) * DV + row(offs_v), cast<half>(oc * scale), col(tm) & row(vm));
    S = dot(trans(kc), vc, S);
  }
}
template void linattn_chunk<64, 64, 64>(const half*, const half*, const half*, half*, int, int, float);
template void linattn_chunk<32, 128, 64>(const half*, const half*, const half*, half*, int, int, float);

// 9. Fused two-layer MLP: out = gelu(x W1 + b1) W2, the hidden tile never leaves the program.
template <int BM, int BH, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void mlp2(const half* x, const half* W1, const half* b1, const half* W2, half* out, int M, int K, int H, int N) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto acc = zeros<float, BM, BN>();
  for (int h0 = 0; h0 < H; h0 += BH) {
    auto rh = h0 + arange<BH>();
    auto hacc = zeros<float, BM, BH>();
    for (int k0 = 0; k0 < K; k0 += BK) {
      auto rk = k0 + arange<BK>();
      auto a = load(x + col(rm) * K + row(rk), col(rm < M) & row(rk < K), 0.0f);
      auto w = load(W1 + col(rk) * H + row(rh), col(rk < K) & row(rh < H), 0.0f);
      hacc = dot(a, w, hacc);
    }
    auto hb = cast<float>(load(b1 + rh, rh < H, 0.0f));
    auto hv = hacc + row(hb);
    auto g = 0.5f * hv * (1.0f + tanh(0.7978845608f * (hv + 0.044715f * hv * hv * hv)));
    auto w2 = load(W2 + col(rh) * N + row(rn), col(rh < H) & row(rn < N), 0.0f);
    acc = dot(cast<half>(g), w2, acc);
  }
  store(out + col(rm) * N + row(rn), cast<half>(acc), col(rm < M) & row(rn < N));
}
template void mlp2<64, 64, 64, 32>(const half*, const half*, const half*, const half*, half*, int, int, int, int);
template void mlp2<128, 64, 128, 64>(const half*, const half*, const half*, const half*, half*, int, int, int, int);
