// Benchmark of the translated samples at the peers' sizes (shared/bench/peers.py): median of
// CUDA-event timings after warm-up, L2 flushed before each (<tilecc/bench.hpp>); GB/s for the
// memory-bound workloads (each input read once, each output written once), TFLOP/s for matmul
// and attention; a correctness check of sampled outputs against a double reference on fresh
// random inputs. Prints a table; with OUT set, writes OUT/tilecc_bench.json. Arguments pick
// workloads: memory, cumsum, matmul, strided, splitk, conv, attention, family (default all);
// `spin` (only when named) runs the fp16 4096^3 GEMM back to back for 5 s.
#include "attention.h"
#include "conv_kernels.h"
#include "cumsum.h"
#include "layernorm.h"
#include "matmul.h"
#include "row_sum.h"
#include "softmax.h"
#include "split_k_kernels.h"
#include "strided_kernels.h"
#include "transpose.h"
#include "vector_add.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <tilecc/bench.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#define CHECK(call)                                                                                     \
  do {                                                                                                  \
    cudaError_t e_ = (call);                                                                            \
    if (e_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));       \
      std::exit(1);                                                                                     \
    }                                                                                                   \
  } while (0)

double tensorMapMicros(bool sameArguments);  // encode.cu

namespace {

std::mt19937_64 gen{std::random_device{}()};

template <class T>
T* upload(const std::vector<T>& h) {
  T* d;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&d), h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T>
std::vector<T> download(const T* d, std::size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
std::vector<float> randomFloats(std::size_t n) {
  std::vector<float> v(n);
  std::normal_distribution<float> d;
  for (auto& x : v) x = d(gen);
  return v;
}
std::vector<__half> randomHalves(std::size_t n) {
  std::vector<__half> v(n);
  std::normal_distribution<float> d;
  for (auto& x : v) x = __float2half(d(gen));
  return v;
}
double f(float x) { return x; }
double f(__half x) { return __half2float(x); }

// <tilecc/bench.hpp>: 5 warm-ups, the median of 40 CUDA-event timings, L2 flushed before each
// (as the peers' do_bench).
float timeMs(const std::function<void()>& launch) {
  const tilecc::bench::stats s = tilecc::bench::time(launch);
  if (s.error != cudaSuccess) {
    std::fprintf(stderr, "timing failed: %s\n", cudaGetErrorString(s.error));
    std::exit(1);
  }
  return static_cast<float>(s.median_ms);
}

struct Row {
  std::string workload;
  double ms, gbps, tflops, relErr;
};
std::vector<Row> rows;

void record(const std::string& w, double ms, double bytes, double err) {
  rows.push_back({w, ms, bytes / ms / 1e6, 0, err});
  std::printf("%-32s %9.4f ms %8.1f GB/s   rel err %.2e\n", w.c_str(), ms, bytes / ms / 1e6, err);
  std::fflush(stdout);
}
void recordFlops(const std::string& w, double ms, double flops, double err) {
  rows.push_back({w, ms, 0, flops / ms / 1e9, err});
  std::printf("%-32s %9.4f ms %8.1f TFLOP/s rel err %.2e\n", w.c_str(), ms, flops / ms / 1e9, err);
  std::fflush(stdout);
}

double relErr(double diff2, double ref2) { return std::sqrt(diff2 / std::max(ref2, 1e-300)); }

void vectorAdd() {
  const int n = 1 << 28;
  auto hx = randomFloats(n), hy = randomFloats(n);
  float *x = upload(hx), *y = upload(hy), *o;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&o), n * sizeof(float)));
  const float ms = timeMs([&] { CHECK(launch_vector_add(dim3((n + 1023) / 1024), nullptr, x, y, o, n)); });
  auto ho = download(o, n);
  double d2 = 0, r2 = 0;
  for (int i = 0; i < n; i += 997) {
    const double ref = double(hx[i]) + hy[i];
    d2 += (ho[i] - ref) * (ho[i] - ref);
    r2 += ref * ref;
  }
  record("vector_add fp32 2^28", ms, 3.0 * 4 * n, relErr(d2, r2));
  cudaFree(x), cudaFree(y), cudaFree(o);
}

template <class T, class L>
void softmax(const char* name, int M, int N, L launch) {
  std::vector<T> hx;
  if constexpr (sizeof(T) == 2) hx = randomHalves(std::size_t(M) * N); else hx = randomFloats(std::size_t(M) * N);
  T *x = upload(hx), *o;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&o), hx.size() * sizeof(T)));
  const float ms = timeMs([&] { CHECK(launch(dim3(M), nullptr, x, o, N, N, N)); });
  auto ho = download(o, hx.size());
  double d2 = 0, r2 = 0;
  for (int r = 0; r < M; r += 509) {
    double mx = -INFINITY, s = 0;
    for (int j = 0; j < N; ++j) mx = std::max(mx, f(hx[std::size_t(r) * N + j]));
    for (int j = 0; j < N; ++j) s += std::exp(f(hx[std::size_t(r) * N + j]) - mx);
    for (int j = 0; j < N; ++j) {
      const double ref = std::exp(f(hx[std::size_t(r) * N + j]) - mx) / s;
      const double g = f(ho[std::size_t(r) * N + j]);
      d2 += (g - ref) * (g - ref);
      r2 += ref * ref;
    }
  }
  record(name, ms, 2.0 * sizeof(T) * hx.size(), relErr(d2, r2));
  cudaFree(x), cudaFree(o);
}

void layernorm() {
  const int M = 16384, N = 4096;
  auto hx = randomHalves(std::size_t(M) * N), hw = randomHalves(N), hb = randomHalves(N);
  __half *x = upload(hx), *w = upload(hw), *b = upload(hb), *y;
  float *mean, *rstd;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&y), hx.size() * 2));
  CHECK(cudaMalloc(reinterpret_cast<void**>(&mean), M * 4));
  CHECK(cudaMalloc(reinterpret_cast<void**>(&rstd), M * 4));
  const float ms = timeMs([&] { CHECK(launch_layernorm_half_4096(dim3(M), nullptr, x, y, w, b, mean, rstd, N, N, 1e-5f)); });
  auto hy = download(y, hx.size());
  double d2 = 0, r2 = 0;
  for (int r = 0; r < M; r += 509) {
    double m = 0, v = 0;
    for (int j = 0; j < N; ++j) m += f(hx[std::size_t(r) * N + j]);
    m /= N;
    for (int j = 0; j < N; ++j) v += std::pow(f(hx[std::size_t(r) * N + j]) - m, 2);
    const double rs = 1 / std::sqrt(v / N + 1e-5);
    for (int j = 0; j < N; ++j) {
      const double ref = (f(hx[std::size_t(r) * N + j]) - m) * rs * f(hw[j]) + f(hb[j]);
      const double g = f(hy[std::size_t(r) * N + j]);
      d2 += (g - ref) * (g - ref);
      r2 += ref * ref;
    }
  }
  record("layernorm fp16 16384x4096", ms, 2.0 * 2 * hx.size(), relErr(d2, r2));
  cudaFree(x), cudaFree(w), cudaFree(b), cudaFree(y), cudaFree(mean), cudaFree(rstd);
}

void rowSum() {
  const int M = 16384, N = 8192;
  auto hx = randomFloats(std::size_t(M) * N);
  float *x = upload(hx), *o;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&o), M * 4));
  const float ms = timeMs([&] { CHECK(launch_row_sum_2048(dim3(M), nullptr, x, o, N, N)); });
  auto ho = download(o, M);
  double d2 = 0, r2 = 0;
  for (int r = 0; r < M; r += 61) {
    double s = 0;
    for (int j = 0; j < N; ++j) s += hx[std::size_t(r) * N + j];
    d2 += (ho[r] - s) * (ho[r] - s);
    r2 += s * s;
  }
  record("row sum fp32 16384x8192", ms, 4.0 * hx.size(), relErr(d2, r2));
  cudaFree(x), cudaFree(o);
}

void cumsum() {
  const int M = 16384, N = 4096;
  auto hx = randomFloats(std::size_t(M) * N);
  float *x = upload(hx), *y;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&y), hx.size() * 4));
  const float ms = timeMs([&] { CHECK(launch_cumsum_rows_4096(dim3(M), nullptr, x, y, N, N)); });
  auto hy = download(y, hx.size());
  double d2 = 0, r2 = 0;
  for (int r = 0; r < M; r += 61) {
    double s = 0;
    for (int j = 0; j < N; ++j) {
      s += hx[std::size_t(r) * N + j];
      const double g = hy[std::size_t(r) * N + j];
      d2 += (g - s) * (g - s);
      r2 += s * s;
    }
  }
  record("cumsum fp32 16384x4096", ms, 2.0 * 4 * hx.size(), relErr(d2, r2));
  cudaFree(x), cudaFree(y);
}

void transpose() {
  const int S = 16384;
  auto hx = randomHalves(std::size_t(S) * S);
  __half *x = upload(hx), *o;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&o), hx.size() * 2));
  const float ms = timeMs([&] { CHECK(launch_transpose_half_64(dim3(S / 64, S / 64), nullptr, x, o, S, S, S, S)); });
  auto ho = download(o, hx.size());
  double d2 = 0, r2 = 0;
  for (std::size_t i = 0; i < std::size_t(S); i += 7)
    for (std::size_t j = 0; j < std::size_t(S); j += 131) {
      const double ref = f(hx[i * S + j]), g = f(ho[j * S + i]);
      d2 += (g - ref) * (g - ref);
      r2 += ref * ref;
    }
  record("transpose fp16 16384^2", ms, 2.0 * 2 * hx.size(), relErr(d2, r2));
  cudaFree(x), cudaFree(o);
}

// Relative error of `samples` random entries of C = A·B against a double reference: A's element
// (i, k) at i * am + k * ak, B (k, j) at k * bk + j * bn (row-major K x N unless given), C
// row-major M x N.
template <class T, class TC, class D>
double gemmRelErr(const std::vector<T>& ha, const std::vector<T>& hb, const std::vector<TC>& hc, int M, int N, int K,
                  std::size_t am, std::size_t ak, int samples, D toDouble, std::size_t bk = 0, std::size_t bn = 1) {
  if (bk == 0) bk = std::size_t(N);  // B row-major unless its strides are given
  double d2 = 0, r2 = 0;
  std::uniform_int_distribution<int> pm(0, M - 1), pn(0, N - 1);
  for (int s = 0; s < samples; ++s) {
    const int i = pm(gen), j = pn(gen);
    double ref = 0;
    for (int k = 0; k < K; ++k) ref += double(toDouble(ha[std::size_t(i) * am + std::size_t(k) * ak])) * toDouble(hb[std::size_t(k) * bk + std::size_t(j) * bn]);
    double g;
    if constexpr (std::is_same_v<TC, float>) g = hc[std::size_t(i) * N + j];
    else g = toDouble(hc[std::size_t(i) * N + j]);
    d2 += (g - ref) * (g - ref);
    r2 += ref * ref;
  }
  return relErr(d2, r2);
}

// C = A·B, S x S x S, row-major; 256 sampled entries against a double reference.
template <class T, class L>
void matmul(const char* name, int S, L launch, T (*fromFloat)(float), double (*toDouble)(T), int BN = 128) {
  std::vector<T> ha(std::size_t(S) * S), hb(ha.size());
  std::normal_distribution<float> nd;
  for (auto& x : ha) x = fromFloat(nd(gen));
  for (auto& x : hb) x = fromFloat(nd(gen));
  T *a = upload(ha), *b = upload(hb), *c;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&c), ha.size() * sizeof(T)));
  const dim3 grid(((S + 127) / 128) * ((S + BN - 1) / BN));
  const float ms = timeMs([&] { CHECK(launch(grid, nullptr, a, b, c, nullptr, S, S, S, S, S, S)); });
  auto hc = download(c, ha.size());
  recordFlops(name, ms, 2.0 * S * S * S, gemmRelErr(ha, hb, hc, S, S, S, S, 1, 256, toDouble));
  cudaFree(a), cudaFree(b), cudaFree(c);
}

// The tuned fp16 matmul family (samples/matmul/matmul.tune) at its tuning shapes: the family
// launcher (dispatch by shape and device) against every configuration launched directly, with
// a sampled correctness check of the dispatched result; then the dispatch's own cost.
void matmulFamily() {
  struct Shape {
    int M, N, K;
  };
  for (const Shape s : {Shape{1024, 1024, 1024}, Shape{4096, 4096, 4096}, Shape{8192, 8192, 8192}, Shape{16384, 1024, 1024},
                        Shape{1024, 1024, 16384}}) {
    auto ha = randomHalves(std::size_t(s.M) * s.K), hb = randomHalves(std::size_t(s.K) * s.N);
    __half *a = upload(ha), *b = upload(hb), *c;
    CHECK(cudaMalloc(reinterpret_cast<void**>(&c), std::size_t(s.M) * s.N * 2));
    const std::string shape = std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
    const double flops = 2.0 * s.M * s.N * s.K;
    // Fifteen rounds, each timing the family launcher (index 0 here) and every configuration in a
    // new order (bench::round_orders: an H100 at 8192^3 runs at its power limit, the same kernel
    // measured 1.6-2.1 ms within three rounds; at 1024^3, a 14 us kernel, seven rounds left the
    // family launcher and the configuration it launches 0-4% apart); medians of rounds.
    const int n = matmul_half_false_none_config_count + 1;
    std::vector<std::vector<double>> t(n);
    for (const std::vector<int>& order : tilecc::bench::round_orders(n, 15)) {
      for (const int i : order) {
        t[i].push_back(timeMs([&] {
          CHECK(i == 0 ? launch_matmul_half_false_none(nullptr, a, b, c, nullptr, s.M, s.N, s.K, s.K, s.N, s.N)
                       : launch_matmul_half_false_none_config(i - 1, nullptr, a, b, c, nullptr, s.M, s.N, s.K, s.K, s.N, s.N));
        }));
      }
    }
    auto med = [&](int i) { return tilecc::bench::median(t[i]); };
    double best = 1e30;
    for (int i = 1; i < n; ++i) {
      best = std::min(best, med(i));
      std::printf("  config %d %-34s %9.4f ms %8.1f TFLOP/s\n", i - 1, matmul_half_false_none_configs[i - 1], med(i), flops / med(i) / 1e9);
    }
    const int chosen = matmul_half_false_none_choose(s.M, s.N, s.K);
    const double first = med(1), ms = med(0), direct = med(chosen + 1);
    CHECK(launch_matmul_half_false_none(nullptr, a, b, c, nullptr, s.M, s.N, s.K, s.K, s.N, s.N));
    auto hc = download(c, std::size_t(s.M) * s.N);
    recordFlops(("matmul family fp16 " + shape + " (config " + std::to_string(chosen) + ")").c_str(),
                ms, flops, gemmRelErr(ha, hb, hc, s.M, s.N, s.K, s.K, 1, 64, [](__half x) { return f(x); }));
    // The tuning's quality (the chosen configuration against the best, both launched directly)
    // apart from the launcher's (the family launch against the configuration it launches).
    std::printf("  dispatched / best configuration %.3f, default / dispatched %.3f; chosen configuration / best %.3f, "
                "family launch / chosen configuration launched directly %.3f\n",
                ms / best, first / ms, direct / best, ms / direct);
    cudaFree(a), cudaFree(b), cudaFree(c);
  }
  // The dispatch alone: a new shape every launch (the search over the table's entries), and the
  // same shape again (the launcher's cache of its previous choice).
  const int reps = 1000000;
  volatile int sink = 0;
  for (const bool fresh : {true, false}) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) sink = sink + matmul_half_false_none_choose(fresh ? 1024 + (i & 1023) : 4096, 1024, 1024);
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / reps;
    std::printf("family dispatch (matmul_half_false_none_choose), %s: %.1f ns per launch\n", fresh ? "a new shape each time" : "the same shape", ns);
  }
}

// The same product through the strided GEMM (tests/gpu/kernels/strided_kernels.tile.cpp):
// operands addressed by run-time strides. Row-major A and B (inner strides 1) take the
// specialised variant; B given column-major (x·Wᵀ for a weight W[N][K]) the variant for a
// transposed B (stride_bk == 1); A given column-major the variant for a transposed A
// (stride_am == 1; its rows wrap through `% M`, which keeps runs since every program checks
// pid_m >= 0). `tutorial`: Triton's tutorial GEMM of the same file (rows and columns wrap).
void matmulStrided(const char* name, int S, bool aColumnMajor, bool bColumnMajor = false, int pad = 0, bool tutorial = false) {
  // Row-major operands with `pad` extra elements per row (odd: the general kernel, as A
  // column-major is).
  const int ld = S + pad;
  std::vector<__half> ha(std::size_t(S) * ld), hb(ha.size());
  std::normal_distribution<float> nd;
  for (auto& x : ha) x = __float2half(nd(gen));
  for (auto& x : hb) x = __float2half(nd(gen));
  __half *a = upload(ha), *b = upload(hb), *c;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&c), std::size_t(S) * S * sizeof(__half)));
  const dim3 grid((S / 128) * (S / 128));
  const int64_t am = aColumnMajor ? 1 : ld, ak = aColumnMajor ? ld : 1;
  const int64_t bk = bColumnMajor ? 1 : ld, bn = bColumnMajor ? ld : 1;
  auto launch = tutorial ? launch_matmul_tutorial_half_128_128_64_8 : launch_matmul_strided_half_128_128_64_8;
  const float ms = timeMs([&] { CHECK(launch(grid, nullptr, a, b, c, S, S, S, am, ak, bk, bn, S, 1)); });
  auto hc = download(c, std::size_t(S) * S);
  recordFlops(name, ms, 2.0 * S * S * S,
              gemmRelErr(ha, hb, hc, S, S, S, am, ak, 256, [](__half x) { return f(x); }, std::size_t(bk), std::size_t(bn)));
  cudaFree(a), cudaFree(b), cudaFree(c);
}

// Split-K GEMMs (kernels/split_k_kernels.tile.cpp), M x N x K fp16 into fp32 C by atomics: C
// zeroed inside each timed launch (part of the work a split-K GEMM does); 256 sampled entries
// against a double reference.
void splitK(const char* name, int M, int N, int K, int splits, bool strided) {
  std::vector<__half> ha(std::size_t(M) * K), hb(std::size_t(K) * N);
  std::normal_distribution<float> nd;
  for (auto& x : ha) x = __float2half(nd(gen));
  for (auto& x : hb) x = __float2half(nd(gen));
  __half *a = upload(ha), *b = upload(hb);
  float* c;
  const std::size_t nc = std::size_t(M) * N;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&c), nc * sizeof(float)));
  const dim3 grid((M + 127) / 128, (N + 127) / 128, splits);
  const int blocks = ((K + 63) / 64 + splits - 1) / splits;
  const float ms = timeMs([&] {
    CHECK(cudaMemsetAsync(c, 0, nc * sizeof(float)));
    if (strided) CHECK(launch_matmul_split_k_strided_128_128_64_4(grid, nullptr, a, b, c, M, N, K));
    else CHECK(launch_matmul_split_k_128_128_64(grid, nullptr, a, b, c, M, N, K, blocks));
  });
  auto hc = download(c, nc);
  recordFlops(name, ms, 2.0 * M * N * K, gemmRelErr(ha, hb, hc, M, N, K, K, 1, 256, [](__half x) { return f(x); }));
  cudaFree(a), cudaFree(b), cudaFree(c);
}

// conv3x3, NHWC fp16, stride 1, padding 1, n=64 56x56 c=128 -> f=128 (the peers' cuDNN
// workload) as an implicit GEMM, in both forms of kernels/conv_kernels.tile.cpp; 64 sampled
// outputs against a double reference.
using ConvLaunch = cudaError_t (*)(dim3, cudaStream_t, const __half*, const __half*, __half*, int, int, int, int, int);
void conv(const char* name, ConvLaunch launch, int BM) {
  const int n = 64, h = 56, w = 56, c = 128, nf = 128;
  auto hx = randomHalves(std::size_t(n) * h * w * c), hw = randomHalves(std::size_t(nf) * 9 * c);
  __half *x = upload(hx), *wt = upload(hw), *y;
  const std::size_t ny = std::size_t(n) * h * w * nf;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&y), ny * 2));
  const dim3 grid((n * h * w + BM - 1) / BM, (nf + 127) / 128);
  const float ms = timeMs([&] { CHECK(launch(grid, nullptr, x, wt, y, n, h, w, c, nf)); });
  auto hy = download(y, ny);
  double d2 = 0, r2 = 0;
  std::uniform_int_distribution<int> pickPixel(0, n * h * w - 1), pickFilter(0, nf - 1);
  for (int s = 0; s < 64; ++s) {
    const int p = pickPixel(gen), o = pickFilter(gen);
    const int img = p / (h * w), oy = p % (h * w) / w, ox = p % w;
    double ref = 0;
    for (int ky = 0; ky < 3; ++ky)
      for (int kx = 0; kx < 3; ++kx) {
        const int iy = oy + ky - 1, ix = ox + kx - 1;
        if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
        for (int ch = 0; ch < c; ++ch)
          ref += f(hx[((std::size_t(img) * h + iy) * w + ix) * c + ch]) * f(hw[(std::size_t(o) * 9 + ky * 3 + kx) * c + ch]);
      }
    const double g = f(hy[std::size_t(p) * nf + o]);
    d2 += (g - ref) * (g - ref);
    r2 += ref * ref;
  }
  recordFlops(name, ms, 2.0 * n * h * w * nf * 9 * c, relErr(d2, r2));
  cudaFree(x), cudaFree(wt), cudaFree(y);
}

// The fp16 4096^3 GEMM (128x256 tile) back to back for `seconds`, without L2 flushes or host
// synchronisation between launches: the steady state in which the GPU's clock settles under its
// power limit. tests/bench/spin_peer.py does the same with cuBLAS; sample nvidia-smi beside both
// (README "Benchmarks", how the GEMM's clock was compared).
void spin(double seconds) {
  const int S = 4096;
  const auto ha = randomHalves(std::size_t(S) * S), hb = randomHalves(ha.size());
  __half *a = upload(ha), *b = upload(hb), *c;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&c), ha.size() * 2));
  const dim3 grid((S / 128) * (S / 256));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<double> perLaunch;
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
    CHECK(cudaEventRecord(e0));
    for (int i = 0; i < 100; ++i) CHECK(launch_matmul_half_128_256_64_8_false_none(grid, nullptr, a, b, c, nullptr, S, S, S, S, S, S));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    perLaunch.push_back(ms / 100);
  }
  std::sort(perLaunch.begin(), perLaunch.end());
  const double med = perLaunch[perLaunch.size() / 2];
  std::printf("spin matmul float16 4096^3, 128x256 tile, back to back %.1f s: %9.4f ms %8.1f TFLOP/s (median of %zu batches of 100)\n",
              seconds, med, 2.0 * S * S * S / med / 1e9, perLaunch.size());
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  cudaFree(a), cudaFree(b), cudaFree(c);
}

__nv_bfloat16 toBf16(float x) { return __float2bfloat16(x); }
__half toHalf(float x) { return __float2half(x); }
double fromBf16(__nv_bfloat16 x) { return __bfloat162float(x); }
double fromHalf(__half x) { return __half2float(x); }

// Flash attention forward, fp16, [B*H, S, D]; 8 sampled rows against a double reference.
template <class L>
void attention(const char* name, int D, bool causal, L launch) {
  const int B = 4, H = 32, S = 4096;
  const std::size_t n = std::size_t(B) * H * S * D;
  auto hq = randomHalves(n), hk = randomHalves(n), hv = randomHalves(n);
  __half *q = upload(hq), *k = upload(hk), *v = upload(hv), *o;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&o), n * 2));
  const float scale = 1.0f / std::sqrt(float(D));
  const float ms = timeMs([&] { CHECK(launch(dim3(S / 128, B * H), nullptr, q, k, v, o, S, scale, int64_t(S) * D, D)); });
  auto ho = download(o, n);
  double d2 = 0, r2 = 0;
  std::uniform_int_distribution<int> pickHead(0, B * H - 1), pickRow(0, S - 1);
  std::vector<double> p(S);
  for (int s = 0; s < 8; ++s) {
    const std::size_t h = std::size_t(pickHead(gen)) * S * D;
    const int i = pickRow(gen), last = causal ? i : S - 1;
    double mx = -INFINITY, total = 0;
    for (int j = 0; j <= last; ++j) {
      double dp = 0;
      for (int d = 0; d < D; ++d) dp += f(hq[h + std::size_t(i) * D + d]) * f(hk[h + std::size_t(j) * D + d]);
      mx = std::max(mx, p[j] = dp * scale);
    }
    for (int j = 0; j <= last; ++j) total += (p[j] = std::exp(p[j] - mx));
    for (int d = 0; d < D; ++d) {
      double ref = 0;
      for (int j = 0; j <= last; ++j) ref += p[j] * f(hv[h + std::size_t(j) * D + d]);
      ref /= total;
      const double g = f(ho[h + std::size_t(i) * D + d]);
      d2 += (g - ref) * (g - ref);
      r2 += ref * ref;
    }
  }
  recordFlops(name, ms, 4.0 * B * H * double(S) * S * D * (causal ? 0.5 : 1.0), relErr(d2, r2));
  cudaFree(q), cudaFree(k), cudaFree(v), cudaFree(o);
}

}  // namespace

int main(int argc, char** argv) {
  auto want = [&](const char* w) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; ++i)
      if (std::string(argv[i]) == w) return true;
    return false;
  };
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("tilecc bench on %s\n", p.name);
  if (want("memory")) {
    vectorAdd();
    softmax<float>("softmax float32 8192x4096", 8192, 4096, launch_softmax_float_4096);
    softmax<__half>("softmax float16 16384x4096", 16384, 4096, launch_softmax_half_4096);
    layernorm();
    rowSum();
    transpose();
  }
  if (want("memory") || want("cumsum")) cumsum();
  if (want("matmul"))
    for (int S : {4096, 8192}) {
      matmul<__half>((std::string("matmul float16 ") + std::to_string(S) + "^3").c_str(), S,
                     launch_matmul_half_128_128_64_8_false_none, toHalf, fromHalf);
      matmul<__nv_bfloat16>((std::string("matmul bfloat16 ") + std::to_string(S) + "^3").c_str(), S,
                            launch_matmul_bfloat16_128_128_64_8_false_none, toBf16, fromBf16);
      matmul<__half>((std::string("matmul float16 ") + std::to_string(S) + "^3, 128x256 tile").c_str(), S,
                     launch_matmul_half_128_256_64_8_false_none, toHalf, fromHalf, 256);
      matmul<__nv_bfloat16>((std::string("matmul bfloat16 ") + std::to_string(S) + "^3, 128x256 tile").c_str(), S,
                            launch_matmul_bfloat16_128_256_64_8_false_none, toBf16, fromBf16, 256);
    }
  // Sizes ≡ 8 (mod 16): 16 bytes of f16 are 8 elements, so the TMA variant serves them too.
  if (want("matmul"))
    matmul<__half>("matmul float16 4104^3 (sizes 8 mod 16), 128x256 tile", 4104, launch_matmul_half_128_256_64_8_false_none, toHalf,
                   fromHalf, 256);
  // Ragged square sizes (only when asked; tests/bench/peers_extra.py --ragged times the peers):
  // rows of 4104 fp16 elements start mid-sector (16- but not 32-byte aligned), of 4000 on 64-byte
  // boundaries, of 4092 and 4097 off 16 bytes (no TMA).
  if (argc > 1 && want("ragged"))
    for (int S : {4104, 4000, 4092, 4097})
      matmul<__half>((std::string("matmul float16 ") + std::to_string(S) + "^3, 128x256 tile").c_str(), S,
                     launch_matmul_half_128_256_64_8_false_none, toHalf, fromHalf, 256);
  if (argc > 1 && want("spin")) spin(5.0);  // only when asked
  if (want("matmul") || want("launch"))
    std::printf("TMA descriptor on the host: %.3f us from the launcher's cache, %.3f us encoded\n", tensorMapMicros(true),
                tensorMapMicros(false));
  if (want("matmul") || want("strided")) {
    matmulStrided("matmul strided float16 4096^3, unit inner strides", 4096, false);
    matmulStrided("matmul strided float16 4096^3, A column-major", 4096, true);
    matmulStrided("matmul strided float16 4096^3, B column-major", 4096, false, true);
    matmulStrided("matmul strided float16 4096^3, rows of 4097 elements", 4096, false, false, 1);
    matmulStrided("matmul tutorial float16 4096^3, rows and columns wrapping", 4096, false, false, 0, true);
    matmulStrided("matmul tutorial float16 4096^3, A column-major", 4096, true, false, 0, true);
  }
  if (want("splitk")) {
    splitK("split-K fp16 1024x1024x16384, 8 slices", 1024, 1024, 16384, 8, false);
    splitK("split-K (Triton's), 1024x1024x16384, 4", 1024, 1024, 16384, 4, true);
    splitK("split-K fp16 4096^3, 1 slice", 4096, 4096, 4096, 1, false);
    splitK("split-K fp16 4096^3, 4 slices", 4096, 4096, 4096, 4, false);
  }
  if (want("conv")) {
    conv("conv3x3 NHWC fp16 64x56x56x128->128", launch_conv3x3_128_128_32_3, 128);
    conv("conv3x3 by taps, 128x128x64", launch_conv3x3_taps_128_128_64_3, 128);
    conv("conv3x3 by taps, 256x128x64", launch_conv3x3_taps_256_128_64_3, 256);
  }
  if (want("family")) matmulFamily();
  if (want("attention")) {
    attention("attention fwd fp16 causal=0", 128, false, launch_attention_128_128_128_false_3);
    attention("attention fwd fp16 causal=1", 128, true, launch_attention_128_128_128_true_3);
    attention("attention fwd fp16 D64 causal=0", 64, false, launch_attention_128_256_64_false_2);
    attention("attention fwd fp16 D64 causal=1", 64, true, launch_attention_128_256_64_true_2);
    attention("attention fwd fp16 D64 causal=0, 128-key blocks, 3 stages", 64, false, launch_attention_128_128_64_false_3);
    attention("attention fwd fp16 D64 causal=1, 128-key blocks, 3 stages", 64, true, launch_attention_128_128_64_true_3);
  }
  if (const char* out = std::getenv("OUT")) {
    std::string path = std::string(out) + "/tilecc_bench.json";
    if (FILE* fp = std::fopen(path.c_str(), "w")) {
      std::fprintf(fp, "[\n");
      for (std::size_t i = 0; i < rows.size(); ++i)
        std::fprintf(fp, "  {\"workload\": \"%s\", \"peer\": \"tilecc\", \"ms\": %.5f, \"%s\": %.1f, \"rel_err\": %.3e}%s\n",
                     rows[i].workload.c_str(), rows[i].ms, rows[i].tflops > 0 ? "TFLOPs" : "GBps",
                     rows[i].tflops > 0 ? rows[i].tflops : rows[i].gbps, rows[i].relErr, i + 1 < rows.size() ? "," : "");
      std::fprintf(fp, "]\n");
      std::fclose(fp);
    }
  }
  return 0;
}
