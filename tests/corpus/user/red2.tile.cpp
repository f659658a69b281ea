// Reductions and scans (uk2 probe set).
#include <tilecc/tile.hpp>
using namespace tilecc;

// 6. argmin per row across column chunks, ties resolved to the first index.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void argmin_rows(const float* x, int* idx, float* val, int M, int N) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto best = full<float, BM>(INFINITY);
  auto bidx = zeros<int, BM>();
  for (int k = 0; k < N; k += BN) {
    auto cn = k + arange<BN>();
    auto v = load(x + cast<int64_t>(col(rm)) * N + row(cn), col(rm < M) & row(cn < N), INFINITY);
    auto cmin = min<1>(v);
    auto carg = argmin<1>(v) + k;
    auto better = cmin < best;
    bidx = where(better, carg, bidx);
    best = where(better, cmin, best);
  }
  store(idx + rm, bidx, rm < M);
  store(val + rm, best, rm < M);
}
template void argmin_rows<16, 128>(const float*, int*, float*, int, int);
template void argmin_rows<64, 32>(const float*, int*, float*, int, int);

// 7. top-1 per row (value as half, index as int64) in one tile.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void top1(const half* x, half* val, int64_t* idx, int M, int N) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto cn = arange<BN>();
  auto v = load(x + col(rm) * N + row(cn), col(rm < M) & row(cn < N), -INFINITY);
  store(val + rm, cast<half>(max<1>(cast<float>(v))), rm < M);
  store(idx + rm, cast<int64_t>(argmax<1>(v)), rm < M);
}
template void top1<8, 256>(const half*, half*, int64_t*, int, int);

// 8. Welford-style variance per row: chunk statistics combined into carried scalars (Chan's formula),
//    plus the max |x| with a custom reduce combine function.
inline float absmax(float a, float b) { return fabsf(b) > fabsf(a) ? b : a; }
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void welford_rows(const float* x, float* mean, float* var, float* amax, int N) {
  const int64_t r = program_id(0);
  float cnt = 0.0f, mu = 0.0f, m2 = 0.0f, am = 0.0f;
  for (int k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    auto m = c < N;
    auto v = load(x + r * N + c, m, 0.0f);
    const float nb = cast<float>(tilecc::min(N - k, BLOCK));
    const float mb = sum(v) / nb;
    const float m2b = sum(where(m, (v - mb) * (v - mb), 0.0f));
    const float tot = cnt + nb;
    const float delta = mb - mu;
    mu = mu + delta * nb / tot;
    m2 = m2 + m2b + delta * delta * cnt * nb / tot;
    cnt = tot;
    am = absmax(am, reduce(v, absmax));
  }
  store(mean + r, mu);
  store(var + r, m2 / cnt);
  store(amax + r, am);
}
template void welford_rows<256>(const float*, float*, float*, float*, int);

// 9. histogram with integer atomics: bins from floats, clamped; out-of-range counted separately.
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void histogram(const float* x, int* hist, unsigned* outside, int n, float lo, float hi, int nbins) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto m = offs < n;
  auto v = load(x + offs, m, 0.0f);
  auto inside = (v >= lo) & (v < hi);
  auto b = cast<int>((v - lo) * (nbins / (hi - lo)));
  b = minimum(maximum(b, 0), nbins - 1);
  atomic_add(hist + b, 1, m & inside);
  atomic_add(outside, cast<uint32_t>(sum(m & !inside)));
}
template void histogram<1024>(const float*, int*, unsigned*, int, float, float, int);

// 10. exclusive prefix sum along the last axis, across column chunks with a carry (int and float).
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void excl_scan(const int* x, const float* fx, int* out, float* fout, int M, int N) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto carry = zeros<int, BM>();
  auto fcarry = zeros<float, BM>();
  for (int k = 0; k < N; k += BN) {
    auto cn = k + arange<BN>();
    auto msk = col(rm < M) & row(cn < N);
    auto off = col(rm) * N + row(cn);
    auto v = load(x + off, msk, 0);
    auto fv = load(fx + off, msk, 0.0f);
    store(out + off, cumsum<1>(v) - v + col(carry), msk);
    store(fout + off, cumsum<1>(fv) - fv + col(fcarry), msk);
    carry += sum<1>(v);
    fcarry += sum<1>(fv);
  }
}
template void excl_scan<32, 64>(const int*, const float*, int*, float*, int, int);
template void excl_scan<4, 512>(const int*, const float*, int*, float*, int, int);

// 11. running maximum (scan with a function template by name) and a running product of int8.
template <class T> T larger(T a, T b) { return a < b ? b : a; }
template <int BN>
TILECC_KERNEL(num_warps = 2)
void running_max(const float* x, const int8_t* c, float* out, int8_t* cout, int N) {
  const int r = program_id(0);
  auto cn = arange<BN>();
  auto m = cn < N;
  auto v = load(x + r * N + cn, m, -INFINITY);
  store(out + r * N + cn, scan(v, larger<float>), m);
  auto ci = load(c + r * N + cn, m, int8_t{1});
  store(cout + r * N + cn, scan(ci, [](int8_t a, int8_t b) -> int8_t { return static_cast<int8_t>(a * b); }), m);
}
template void running_max<128>(const float*, const int8_t*, float*, int8_t*, int);
