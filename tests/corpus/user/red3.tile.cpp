// Reductions, scans and atomics (third user-style set, tests/corpus/user).
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// 13. Reverse (suffix) cumulative sums per row: chunks visited last to first (a loop counting
//     down) with a carry; float and int outputs. out[i] = sum_{j >= i} x[j].
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void rev_cumsum(const float* x, const int* xi, float* out, int* outi, int N) {
  const int64_t r = program_id(0);
  float carry = 0.0f;
  int carryi = 0;
  for (int c = (cdiv(N, BLOCK) - 1) * BLOCK; c >= 0; c -= BLOCK) {
    auto offs = c + arange<BLOCK>();
    auto m = offs < N;
    auto v = load(x + r * N + offs, m, 0.0f);
    auto vi = load(xi + r * N + offs, m, 0);
    const float tot = sum(v);
    const int toti = sum(vi);
    auto suffix = tot - cumsum(v) + v + carry;
    auto suffixi = toti - cumsum(vi) + vi + carryi;
    store(out + r * N + offs, suffix, m);
    store(outi + r * N + offs, suffixi, m);
    carry += tot;
    carryi += toti;
  }
}
template void rev_cumsum<256>(const float*, const int*, float*, int*, int);
template void rev_cumsum<32>(const float*, const int*, float*, int*, int);

// 14. Reverse cumsum of a row of at most BLOCK elements by flipping the index (load at n-1-i,
//     scan, store back at n-1-i), with a custom combine (max) on the flipped row too.
template <int BLOCK>
TILECC_KERNEL(num_warps = 2)
void flip_scan(const float* x, float* csum, float* cmax, int N) {
  const int64_t r = program_id(0);
  auto i = arange<BLOCK>();
  auto src = N - 1 - i;
  auto m = i < N;
  auto v = load(x + r * N + src, m, 0.0f);
  auto cs = cumsum(v);
  auto cm = scan(where(m, v, -INFINITY), [](float a, float b) { return a > b ? a : b; });
  store(csum + r * N + src, cs, m);
  store(cmax + r * N + src, cm, m);
}
template void flip_scan<1024>(const float*, float*, float*, int);
template void flip_scan<64>(const float*, float*, float*, int);

// 15. Segment sums (scatter-add by a segment id per element) with float and int atomics; ids
//     outside [0, nseg) are dropped.
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void segment_sum(const float* vals, const int* seg, float* out, int* counts, int n, int nseg) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto m = offs < n;
  auto s = load(seg + offs, m, -1);
  auto ok = m & (s >= 0) & (s < nseg);
  atomic_add(out + s, load(vals + offs, m, 0.0f), ok);
  atomic_add(counts + s, 1, ok);
}
template void segment_sum<512>(const float*, const int*, float*, int*, int, int);

// 16. Top-2 per row (values and indices) across column chunks, carried as four [BM] tiles.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void top2_rows(const float* x, float* vals, int* idxs, int M, int N) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto v1 = full<float, BM>(-INFINITY), v2 = full<float, BM>(-INFINITY);
  auto i1 = full<int, BM>(-1), i2 = full<int, BM>(-1);
  for (int k = 0; k < N; k += BN) {
    auto cn = k + arange<BN>();
    auto t = load(x + cast<int64_t>(col(rm)) * N + row(cn), col(rm < M) & row(cn < N), -INFINITY);
    auto a1 = argmax<1>(t);
    auto c1 = max<1>(t);
    auto t2 = where(row(arange<BN>()) == col(a1), -INFINITY, t);
    auto a2 = argmax<1>(t2);
    auto c2 = max<1>(t2);
    a1 = a1 + k;
    a2 = a2 + k;
    // merge (v1, v2) with (c1, c2); strict > keeps the earlier index on ties
    auto first_new = c1 > v1;
    auto nv1 = where(first_new, c1, v1);
    auto ni1 = where(first_new, a1, i1);
    auto cand_v = where(first_new, v1, c1);
    auto cand_i = where(first_new, i1, a1);
    auto other_v = where(first_new, c2, v2);
    auto other_i = where(first_new, a2, i2);
    auto take = cand_v > other_v;
    auto eq = cand_v == other_v;
    auto take_i = take | (eq & (cand_i < other_i) & (cand_i >= 0));
    v2 = where(take_i, cand_v, other_v);
    i2 = where(take_i, cand_i, other_i);
    v1 = nv1;
    i1 = ni1;
  }
  store(vals + cast<int64_t>(rm) * 2, v1, rm < M);
  store(vals + cast<int64_t>(rm) * 2 + 1, v2, rm < M);
  store(idxs + cast<int64_t>(rm) * 2, i1, rm < M);
  store(idxs + cast<int64_t>(rm) * 2 + 1, i2, rm < M);
}
template void top2_rows<16, 128>(const float*, float*, int*, int, int);
template void top2_rows<1, 1024>(const float*, float*, int*, int, int);

// 17. Softmax down the columns of x[M][N] for any M: a first loop over row chunks with an online
//     column maximum and sum, a second loop writing; half in, float out.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void col_softmax_online(const half* x, float* out, int M, int N) {
  auto cn = program_id(0) * BN + arange<BN>();
  auto mx = full<float, BN>(-INFINITY);
  auto sm = zeros<float, BN>();
  for (int r = 0; r < M; r += BM) {
    auto rm = r + arange<BM>();
    auto t = cast<float>(load(x + cast<int64_t>(col(rm)) * N + row(cn), col(rm < M) & row(cn < N), -INFINITY));
    auto m_new = maximum(mx, max<0>(t));
    auto safe = where(m_new == -INFINITY, 0.0f, m_new);
    sm = sm * exp(mx - safe) + sum<0>(exp(t - row(safe)));
    mx = m_new;
  }
  for (int r = 0; r < M; r += BM) {
    auto rm = r + arange<BM>();
    auto t = cast<float>(load(x + cast<int64_t>(col(rm)) * N + row(cn), col(rm < M) & row(cn < N), 0.0f));
    store(out + cast<int64_t>(col(rm)) * N + row(cn), exp(t - row(mx)) / row(sm), col(rm < M) & row(cn < N));
  }
}
template void col_softmax_online<32, 64>(const half*, float*, int, int);
template void col_softmax_online<8, 256>(const half*, float*, int, int);

// 18. Log-sum-exp per row in one pass (online max), bf16 input; WARPS 16 with 4096-wide chunks
//     and one warp with 64-wide chunks.
template <int BLOCK, int WARPS>
TILECC_KERNEL(num_warps = WARPS)
void row_lse(const bfloat16* x, float* out, int N) {
  const int64_t r = program_id(0);
  float m = -INFINITY, s = 0.0f;
  for (int k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    auto v = cast<float>(load(x + r * N + c, c < N, -INFINITY));
    const float m_new = tilecc::max(m, max(v));
    s = s * std::exp(m - m_new) + sum(exp(v - m_new));
    m = m_new;
  }
  store(out + r, m + std::log(s));
}
template void row_lse<4096, 16>(const bfloat16*, float*, int);
template void row_lse<64, 1>(const bfloat16*, float*, int);

// 19. Stream compaction: keep x > thr; each program reserves room with a scalar atomic_add on a
//     counter (the old value is its base) and writes its kept values in order.
template <int BLOCK>
TILECC_KERNEL(num_warps = 8)
void compact(const float* x, float* out, int* where_from, int* counter, int n, float thr) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto v = load(x + offs, offs < n, -INFINITY);
  auto keep = (offs < n) & (v > thr);
  const int cnt = sum(keep);
  if (cnt == 0) return;
  const int base = atomic_add(counter, cnt);
  auto slot = base + cumsum(keep) - 1;
  store(out + slot, v, keep);
  store(where_from + slot, offs, keep);
}
template void compact<1024>(const float*, float*, int*, int*, int, float);

// 20. Top-k threshold per row by bisection (top-k sampling): a loop of at most `iters` steps
//     with two carried scalars, leaving early (return) when exactly k values are >= mid.
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void topk_threshold(const float* x, float* thr, int* steps, int N, int k, int iters) {
  const int64_t r = program_id(0);
  auto c = arange<BLOCK>();
  auto v = load(x + r * N + c, c < N, -INFINITY);
  float lo = min(where(c < N, v, INFINITY));
  float hi = max(v);
  for (int it = 0; it < iters; ++it) {
    const float mid = (lo + hi) * 0.5f;
    const int cnt = sum(v >= mid);
    if (cnt == k) {
      store(thr + r, mid);
      store(steps + r, it + 1);
      return;
    }
    if (cnt > k)
      lo = mid;
    else
      hi = mid;
  }
  store(thr + r, lo);
  store(steps + r, -1);
}
template void topk_threshold<1024>(const float*, float*, int*, int, int, int);

// 21. Dynamic per-row int8 quantisation: pass 1 finds max |x|, pass 2 writes round(x / scale).
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void quant_rows(const half* x, int8_t* q, float* scale, int N) {
  const int64_t r = program_id(0);
  float amax = 0.0f;
  for (int k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    amax = tilecc::max(amax, max(abs(cast<float>(load(x + r * N + c, c < N, 0.0f)))));
  }
  const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
  for (int k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    auto v = cast<float>(load(x + r * N + c, c < N, 0.0f));
    store(q + r * N + c, cast<int8_t>(round(v / s)), c < N);
  }
  store(scale + r, s);
}
template void quant_rows<512>(const half*, int8_t*, float*, int);

// 22. Argmax down each column (axis 0) across row chunks, int64 indices.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void col_argmax(const float* x, int64_t* idx, int M, int N) {
  auto cn = program_id(0) * BN + arange<BN>();
  auto best = full<float, BN>(-INFINITY);
  auto bi = zeros<int64_t, BN>();
  for (int r = 0; r < M; r += BM) {
    auto rm = r + arange<BM>();
    auto t = load(x + cast<int64_t>(col(rm)) * N + row(cn), col(rm < M) & row(cn < N), -INFINITY);
    auto cm = max<0>(t);
    auto ca = cast<int64_t>(argmax<0>(t)) + r;
    auto better = cm > best;
    best = where(better, cm, best);
    bi = where(better, ca, bi);
  }
  store(idx + cn, bi, cn < N);
}
template void col_argmax<64, 32>(const float*, int64_t*, int, int);
