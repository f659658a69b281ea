// Memory-bound benchmark of the translated samples at the peers' sizes (shared/bench/peers.py):
// median of CUDA-event timings after warm-up, GB/s counting each input read once and each
// output written once, and a correctness check of sampled rows against a double reference
// on fresh random inputs. Prints a table; with OUT set, writes OUT/tilecc_bench.json.
#include "layernorm.h"
#include "row_sum.h"
#include "softmax.h"
#include "transpose.h"
#include "vector_add.h"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#define CHECK(call)                                                                                     \
  do {                                                                                                  \
    cudaError_t e_ = (call);                                                                            \
    if (e_ != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));       \
      std::exit(1);                                                                                     \
    }                                                                                                   \
  } while (0)

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

float timeMs(const std::function<void()>& launch) {
  for (int i = 0; i < 5; ++i) launch();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int i = 0; i < 40; ++i) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

struct Row {
  std::string workload;
  double ms, gbps, relErr;
};
std::vector<Row> rows;

void record(const std::string& w, double ms, double bytes, double err) {
  rows.push_back({w, ms, bytes / ms / 1e6, err});
  std::printf("%-28s %9.4f ms %8.1f GB/s   rel err %.2e\n", w.c_str(), ms, bytes / ms / 1e6, err);
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

}  // namespace

int main() {
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("tilecc bench on %s\n", p.name);
  vectorAdd();
  softmax<float>("softmax float32 8192x4096", 8192, 4096, launch_softmax_float_4096);
  softmax<__half>("softmax float16 16384x4096", 16384, 4096, launch_softmax_half_4096);
  layernorm();
  rowSum();
  transpose();
  if (const char* out = std::getenv("OUT")) {
    std::string path = std::string(out) + "/tilecc_bench.json";
    if (FILE* fp = std::fopen(path.c_str(), "w")) {
      std::fprintf(fp, "[\n");
      for (std::size_t i = 0; i < rows.size(); ++i)
        std::fprintf(fp, "  {\"workload\": \"%s\", \"peer\": \"tilecc\", \"ms\": %.5f, \"GBps\": %.1f, \"rel_err\": %.3e}%s\n",
                     rows[i].workload.c_str(), rows[i].ms, rows[i].gbps, rows[i].relErr, i + 1 < rows.size() ? "," : "");
      std::fprintf(fp, "]\n");
      std::fclose(fp);
    }
  }
  return 0;
}
