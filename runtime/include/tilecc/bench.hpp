// Timing kernels the way tilecc's benchmark and its peers (Triton's do_bench) do: warm-up runs
// (at least `warmup` of them and `warmup_ms`), then each timed run between two CUDA events on the
// stream, with the L2 cache flushed before it (a memset of a buffer twice the L2's size, outside
// the events), and the median reported.
// Host C++ against the CUDA runtime API.
//
//   tilecc::bench::stats s = tilecc::bench::time([&] { return launch_matmul(grid, stream, a, b, c, M, N, K); });
//   std::printf("%.3f ms, %.1f TFLOP/s\n", s.median_ms, s.tflops(2.0 * M * N * K));
//
// The callable may return void or cudaError_t; a failed launch, or an error the runs leave,
// ends the timing with stats::error set (and no samples).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <random>
#include <type_traits>
#include <vector>

namespace tilecc::bench {

struct options {
  int warmup = 5;     // untimed runs first (clocks, caches of the launcher: TMA descriptors)
  /// ... and more of them until this much time has passed (as peers.py's do_bench(warmup=50)):
  /// a GEMM at a GPU's power limit slows within milliseconds, so each kernel is timed at the
  /// clocks it sustains, not at those the kernel before it left.
  double warmup_ms = 50;
  int reps = 40;      // timed runs; the median is reported
  bool flush_l2 = true;  // each timed run starts with a cold L2 (as do_bench does)
  cudaStream_t stream = nullptr;
};

struct stats {
  cudaError_t error = cudaSuccess;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::vector<float> samples_ms;  // in the order they ran
  /// Throughput at the median for `bytes` moved or `flops` computed per run.
  double gbps(double bytes) const { return median_ms > 0 ? bytes / median_ms / 1e6 : 0; }
  double tflops(double flops) const { return median_ms > 0 ? flops / median_ms / 1e9 : 0; }
};

/// The median of `v` (the mean of the middle two for an even count; 0 for none).
template <class T>
double median(std::vector<T> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? double(v[n / 2]) : 0.5 * (double(v[n / 2 - 1]) + double(v[n / 2]));
}

/// The order to time `n` candidates in, for each of `rounds` rounds: a new one every round (a
/// fixed-seed shuffle, so runs are repeatable), so that clocks drifting over a run and the kernel
/// that ran just before (at a GPU's power limit the second of two heavy kernels runs slower;
/// rotating one order would keep every candidate's predecessor) fall on all candidates alike.
inline std::vector<std::vector<int>> round_orders(int n, int rounds) {
  std::vector<int> order(static_cast<std::size_t>(std::max(0, n)));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::mt19937 shuffler(7);
  std::vector<std::vector<int>> orders;
  for (int round = 0; round < rounds; ++round) {
    std::shuffle(order.begin(), order.end(), shuffler);
    orders.push_back(order);
  }
  return orders;
}

/// A device buffer twice the size of the L2 cache; flush() overwrites it on a stream.
class l2_flusher {
 public:
  l2_flusher() {
    int device = 0, l2 = 0;
    if (cudaGetDevice(&device) == cudaSuccess && cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device) == cudaSuccess && l2 > 0) {
      bytes_ = 2 * static_cast<std::size_t>(l2);
      if (cudaMalloc(&buf_, bytes_) != cudaSuccess) buf_ = nullptr, bytes_ = 0;
    }
  }
  ~l2_flusher() {
    if (buf_) cudaFree(buf_);
  }
  l2_flusher(const l2_flusher&) = delete;
  l2_flusher& operator=(const l2_flusher&) = delete;
  cudaError_t flush(cudaStream_t s) { return buf_ ? cudaMemsetAsync(buf_, 0, bytes_, s) : cudaSuccess; }

 private:
  void* buf_ = nullptr;
  std::size_t bytes_ = 0;
};

namespace detail {
template <class F>
cudaError_t run(F& f) {
  if constexpr (std::is_same_v<std::invoke_result_t<F&>, cudaError_t>) return f();
  else return f(), cudaSuccess;
}
}  // namespace detail

/// Times `launch` (see the header comment).
template <class F>
stats time(F&& launch, const options& o = {}) {
  stats s;
  auto fail = [&](cudaError_t e) {
    s.error = e;
    s.samples_ms.clear();
    return s;
  };
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < o.warmup; ++i)
    if (cudaError_t e = detail::run(launch); e != cudaSuccess) return fail(e);
  if (cudaError_t e = cudaStreamSynchronize(o.stream); e != cudaSuccess) return fail(e);
  // The rest of the warm-up back to back, as many runs as the first ones say fill it.
  const double first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (first_ms < o.warmup_ms) {
    const double per_run = std::max(first_ms / std::max(1, o.warmup), 1e-3);
    const int more = static_cast<int>(std::min(1e5, (o.warmup_ms - first_ms) / per_run)) + 1;
    for (int i = 0; i < more; ++i)
      if (cudaError_t e = detail::run(launch); e != cudaSuccess) return fail(e);
    if (cudaError_t e = cudaStreamSynchronize(o.stream); e != cudaSuccess) return fail(e);
  }
  l2_flusher flusher;  // allocated only when needed, once per call
  cudaEvent_t a, b;
  if (cudaError_t e = cudaEventCreate(&a); e != cudaSuccess) return fail(e);
  if (cudaError_t e = cudaEventCreate(&b); e != cudaSuccess) return cudaEventDestroy(a), fail(e);
  cudaError_t err = cudaSuccess;
  for (int i = 0; i < o.reps && err == cudaSuccess; ++i) {
    if (o.flush_l2) err = flusher.flush(o.stream);
    if (err == cudaSuccess) err = cudaEventRecord(a, o.stream);
    if (err == cudaSuccess) err = detail::run(launch);
    if (err == cudaSuccess) err = cudaEventRecord(b, o.stream);
    if (err == cudaSuccess) err = cudaEventSynchronize(b);
    float ms = 0;
    if (err == cudaSuccess) err = cudaEventElapsedTime(&ms, a, b);
    if (err == cudaSuccess) s.samples_ms.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err != cudaSuccess || s.samples_ms.empty()) return fail(err != cudaSuccess ? err : cudaErrorInvalidValue);
  s.median_ms = median(s.samples_ms);
  s.min_ms = *std::min_element(s.samples_ms.begin(), s.samples_ms.end());
  s.max_ms = *std::max_element(s.samples_ms.begin(), s.samples_ms.end());
  return s;
}

}  // namespace tilecc::bench
