// Fourth user-style set (tests/corpus/user): quantisation, long-row softmax, sorting / top-k, stencils, jagged reductions.
#include <tilecc/tile.hpp>
using namespace tilecc;

// 18. Group-wise int8 quantisation (groups of G columns), rank-3 view [BR, NG, G] of a row block.
template <int BR, int NG, int G>
TILECC_KERNEL(num_warps = 4)
void quant_group(const half* x, int8_t* q, float* scales, int M, int Ncols) {
  auto r = program_id(0) * BR + arange<BR>();
  auto cidx = reshape<1, NG, G>(arange<NG * G>());
  auto rr = reshape<BR, 1, 1>(r);
  auto mask = (rr < M) & (cidx < Ncols);
  auto offs = cast<int64_t>(rr) * Ncols + cidx;
  auto v = cast<float>(load(x + offs, mask, 0.0f));
  auto amax = max<2>(abs(v));                           // [BR, NG]
  auto scale = maximum(amax, 1e-8f) / 127.0f;
  auto qv = minimum(maximum(round(v / expand_dims<2>(scale)), -127.0f), 127.0f);
  store(q + offs, cast<int8_t>(qv), mask);
  auto gi = row(arange<NG>());
  store(scales + col(cast<int64_t>(r)) * (Ncols / G) + gi, scale, col(r < M) & (gi < Ncols / G));
}
template void quant_group<4, 8, 128>(const half*, int8_t*, float*, int, int);
template void quant_group<16, 4, 32>(const half*, int8_t*, float*, int, int);

// 19. Fused RMSNorm + per-token int8 quantisation (SmoothQuant-style smoothing vector).
template <int BLOCK>
TILECC_KERNEL(num_warps = BLOCK >= 4096 ? 16 : 4)
void rmsnorm_quant(const bfloat16* x, const bfloat16* w, const float* smooth, int8_t* q, float* scale_out, int N,
                   float eps) {
  const int64_t r = program_id(0);
  auto c = arange<BLOCK>();
  auto m = c < N;
  auto v = cast<float>(load(x + r * N + c, m, 0.0f));
  const float rstd = 1.0f / std::sqrt(sum(v * v) / N + eps);
  auto y = v * rstd * cast<float>(load(w + c, m, 0.0f)) / load(smooth + c, m, 1.0f);
  const float amax = max(abs(y));
  const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
  auto qv = round(y * (1.0f / s));
  store(q + r * N + c, cast<int8_t>(qv), m);
  store(scale_out + r, s);
}
template void rmsnorm_quant<1024>(const bfloat16*, const bfloat16*, const float*, int8_t*, float*, int, float);
template void rmsnorm_quant<8192>(const bfloat16*, const bfloat16*, const float*, int8_t*, float*, int, float);

// 20. Softmax over very long rows, two passes: per-lane online max/sum, then normalise.
template <int BLOCK>
TILECC_KERNEL(num_warps = 8)
void softmax_long_2pass(const half* x, float* out, int N) {
  const int64_t r = program_id(0);
  auto mv = full<float, BLOCK>(-INFINITY);
  auto zv = zeros<float, BLOCK>();
  for (int k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    auto v = cast<float>(load(x + r * N + c, c < N, -INFINITY));
    auto mn = maximum(mv, v);
    auto safe = where(mn == -INFINITY, 0.0f, mn);
    zv = zv * exp(mv - safe) + exp(v - safe);
    mv = mn;
  }
  const float m = max(mv);
  const float z = sum(zv * exp(mv - m));
  for (int k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    auto v = cast<float>(load(x + r * N + c, c < N, -INFINITY));
    store(out + r * N + c, exp(v - m) / z, c < N);
  }
}
template void softmax_long_2pass<1024>(const half*, float*, int);
template void softmax_long_2pass<4096>(const half*, float*, int);

// 21. Online softmax with scalar carries (max and sum per chunk), then normalise, bf16 out.
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void softmax_long_online(const bfloat16* x, bfloat16* out, int N, float temperature) {
  const int64_t r = program_id(0);
  float m = -INFINITY, z = 0.0f;
  for (int k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    auto v = cast<float>(load(x + r * N + c, c < N, -INFINITY)) / temperature;
    const float mn = tilecc::max(m, max(v));
    z = z * std::exp(m - mn) + sum(exp(v - mn));
    m = mn;
  }
  for (int k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    auto v = cast<float>(load(x + r * N + c, c < N, -INFINITY)) / temperature;
    store(out + r * N + c, cast<bfloat16>(exp(v - m) / z), c < N);
  }
}
template void softmax_long_online<2048>(const bfloat16*, bfloat16*, int, float);
template void softmax_long_online<256>(const bfloat16*, bfloat16*, int, float);

// Bitonic compare-exchange of elements i and i ^ J inside sequences of K (ascending where i & K == 0).
template <int R, int N, int K, int J>
void bitonic_cx(tile<float, R, N>& v, tile<int, R, N>& ix) {
  constexpr int A = R * N / (2 * J);
  auto y = reshape<A, 2, J>(v);
  auto yi = reshape<A, 2, J>(ix);
  auto h = reshape<1, 2, 1>(arange<2>());
  auto left = sum<1>(where(h == 0, y, 0.0f));
  auto right = sum<1>(where(h == 1, y, 0.0f));
  auto li = sum<1>(where(h == 0, yi, 0));
  auto ri = sum<1>(where(h == 1, yi, 0));
  auto a = col(arange<A>());
  auto asc = (((a % (N / (2 * J))) * (2 * J)) & K) == 0;  // [A, 1]
  auto swap = (left > right) == asc;
  auto nl = where(swap, right, left), nr = where(swap, left, right);
  auto nli = where(swap, ri, li), nri = where(swap, li, ri);
  v = reshape<R, N>(where(h == 0, expand_dims<1>(nl), expand_dims<1>(nr)));
  ix = reshape<R, N>(where(h == 0, expand_dims<1>(nli), expand_dims<1>(nri)));
}

// 22. Row-wise argsort of N = 32 values (ascending), bitonic network written out stage by stage.
template <int R>
TILECC_KERNEL(num_warps = 4)
void argsort32(const float* x, float* vals, int* idx, int M) {
  constexpr int N = 32;
  auto r = program_id(0) * R + arange<R>();
  auto c = arange<N>();
  auto offs = col(r) * N + row(c);
  auto v = load(x + offs, col(r < M), 0.0f);
  auto ix = broadcast_to<R, N>(row(c));
  bitonic_cx<R, N, 2, 1>(v, ix);
  bitonic_cx<R, N, 4, 2>(v, ix);   bitonic_cx<R, N, 4, 1>(v, ix);
  bitonic_cx<R, N, 8, 4>(v, ix);   bitonic_cx<R, N, 8, 2>(v, ix);   bitonic_cx<R, N, 8, 1>(v, ix);
  bitonic_cx<R, N, 16, 8>(v, ix);  bitonic_cx<R, N, 16, 4>(v, ix);  bitonic_cx<R, N, 16, 2>(v, ix);
  bitonic_cx<R, N, 16, 1>(v, ix);
  bitonic_cx<R, N, 32, 16>(v, ix); bitonic_cx<R, N, 32, 8>(v, ix);  bitonic_cx<R, N, 32, 4>(v, ix);
  bitonic_cx<R, N, 32, 2>(v, ix);  bitonic_cx<R, N, 32, 1>(v, ix);
  store(vals + offs, v, col(r < M));
  store(idx + offs, ix, col(r < M));
}
template void argsort32<8>(const float*, float*, int*, int);
template void argsort32<1>(const float*, float*, int*, int);

// 23. MoE router: softmax over E experts, top-k by repeated argmax (run-time k), renormalised weights.
template <int BT, int E>
TILECC_KERNEL(num_warps = 4)
void topk_router(const float* logits, int* ids, float* weights, int T, int nexp, int topk) {
  auto t = program_id(0) * BT + arange<BT>();
  auto e = arange<E>();
  auto valid = col(t < T) & row(e < nexp);
  auto lg = load(logits + col(cast<int64_t>(t)) * nexp + row(e), valid, -INFINITY);
  auto mx = max<1>(lg);
  auto ex = where(valid, exp(lg - col(where(mx == -INFINITY, 0.0f, mx))), 0.0f);
  auto p = ex / col(maximum(sum<1>(ex), 1e-30f));
  p = where(valid, p, -1.0f);
  auto pp = p;
  auto total = zeros<float, BT>();
  for (int i = 0; i < topk; ++i) {
    auto best = max<1>(pp);
    auto bi = argmax<1>(pp);
    total += best;
    pp = where(row(e) == col(bi), -1.0f, pp);
  }
  for (int i = 0; i < topk; ++i) {
    auto best = max<1>(p);
    auto bi = argmax<1>(p);
    store(ids + cast<int64_t>(t) * topk + i, bi, t < T);
    store(weights + cast<int64_t>(t) * topk + i, best / total, t < T);
    p = where(row(e) == col(bi), -1.0f, p);
  }
}
template void topk_router<16, 64>(const float*, int*, float*, int, int, int);
template void topk_router<64, 8>(const float*, int*, float*, int, int, int);

// 24. 5-point Jacobi step on a 2-D grid with pitch, zero (Dirichlet) outside.
template <int BY, int BX>
TILECC_KERNEL(num_warps = 4)
void stencil5(const float* u, float* out, int H, int W, int ld, float c0, float c1) {
  auto y = program_id(1) * BY + arange<BY>();
  auto x = program_id(0) * BX + arange<BX>();
  auto yy = col(y);
  auto xx = row(x);
  auto inside = (yy < H) & (xx < W);
  auto p = u + yy * ld + xx;
  auto ctr = load(p, inside, 0.0f);
  auto up = load(p - ld, inside & (yy >= 1), 0.0f);
  auto dn = load(p + ld, (yy + 1 < H) & (xx < W), 0.0f);
  auto lf = load(p - 1, inside & (xx >= 1), 0.0f);
  auto rt = load(p + 1, (yy < H) & (xx + 1 < W), 0.0f);
  store(out + yy * ld + xx, c0 * ctr + c1 * (up + dn + lf + rt), inside);
}
template void stencil5<16, 64>(const float*, float*, int, int, int, float, float);
template void stencil5<32, 32>(const float*, float*, int, int, int, float, float);

// 25. 3x3 weighted stencil with the taps in a run-time loop (weights from memory), half in/out, clamp boundary.
template <int BY, int BX>
TILECC_KERNEL(num_warps = 4)
void stencil9_clamp(const half* u, const float* wts, half* out, int H, int W) {
  auto y = program_id(1) * BY + arange<BY>();
  auto x = program_id(0) * BX + arange<BX>();
  auto inside = col(y < H) & row(x < W);
  auto acc = zeros<float, BY, BX>();
  for (int tap = 0; tap < 9; ++tap) {
    const float wt = load(wts + tap);
    auto sy = minimum(maximum(y + (tap / 3 - 1), 0), H - 1);
    auto sx = minimum(maximum(x + (tap % 3 - 1), 0), W - 1);
    acc += wt * cast<float>(load(u + col(cast<int64_t>(sy)) * W + row(sx), inside, 0.0f));
  }
  store(out + col(cast<int64_t>(y)) * W + row(x), cast<half>(acc), inside);
}
template void stencil9_clamp<8, 128>(const half*, const float*, half*, int, int);

// 26. Jagged (ragged batch) mean and max over rows of [total, D] with offsets [B + 1].
template <int BR, int BD>
TILECC_KERNEL(num_warps = 4)
void jagged_mean_max(const float* vals, const int64_t* offsets, float* mean, float* mx, int D) {
  const int64_t b = program_id(1);
  auto d = program_id(0) * BD + arange<BD>();
  auto dm = d < D;
  const int64_t start = load(offsets + b), end = load(offsets + b + 1);
  auto s = zeros<float, BD>();
  auto m = full<float, BD>(-INFINITY);
  for (int64_t r0 = start; r0 < end; r0 += BR) {
    auto r = r0 + arange<BR>();
    auto ok = col(r < end) & row(dm);
    auto v = load(vals + col(r) * D + row(d), ok, 0.0f);
    s += sum<0>(v);
    m = maximum(m, max<0>(where(ok, v, -INFINITY)));
  }
  const int64_t n = end - start;
  store(mean + b * D + d, n > 0 ? s / float(n) : s, dm);
  store(mx + b * D + d, where(m == -INFINITY, 0.0f, m), dm);
}
template void jagged_mean_max<32, 64>(const float*, const int64_t*, float*, float*, int);
template void jagged_mean_max<8, 256>(const float*, const int64_t*, float*, float*, int);

// 27. Segment softmax (GNN edge softmax): scores of edges grouped by destination, offsets [V + 1].
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void segment_softmax(const float* s, const int* offsets, float* out) {
  const int v = program_id(0);
  const int start = load(offsets + v), end = load(offsets + v + 1);
  auto mv = full<float, BLOCK>(-INFINITY);
  for (int e0 = start; e0 < end; e0 += BLOCK) {
    auto e = e0 + arange<BLOCK>();
    mv = maximum(mv, load(s + e, e < end, -INFINITY));
  }
  const float m = max(mv);
  auto zv = zeros<float, BLOCK>();
  for (int e0 = start; e0 < end; e0 += BLOCK) {
    auto e = e0 + arange<BLOCK>();
    zv += where(e < end, exp(load(s + e, e < end, 0.0f) - m), 0.0f);
  }
  const float z = sum(zv);
  for (int e0 = start; e0 < end; e0 += BLOCK) {
    auto e = e0 + arange<BLOCK>();
    store(out + e, exp(load(s + e, e < end, 0.0f) - m) / z, e < end);
  }
}
template void segment_softmax<128>(const float*, const int*, float*);
