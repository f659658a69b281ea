// Helpers for GPU tests: each runs a translated kernel and its host twin on the same fresh
// random inputs and compares. Built by a host C++ compiler against the generated launcher
// header; exits 77 (CTest: skipped) where no GPU is present.
#pragma once

#include "common/host_check.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define GPU_CHECK(call)                                                                                   \
  do {                                                                                                    \
    const cudaError_t e_ = (call);                                                                        \
    if (e_ != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

namespace gpu {

inline void requireGpu() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    // CTest sets TILECC_SKIP_CODE=77 (reported as skipped); by hand this is not a failure.
    std::printf("No CUDA device here: the GPU run is skipped (the kernel was translated and built with nvcc).\n");
    const char* code = std::getenv("TILECC_SKIP_CODE");
    std::exit(code ? std::atoi(code) : 0);
  }
  cudaDeviceProp prop{};
  GPU_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
}

/// A device copy of a host vector; get() copies back.
template <class T>
struct buffer {
  T* p = nullptr;
  std::size_t n = 0;
  explicit buffer(const std::vector<T>& h) : n(h.size()) {
    GPU_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(1, n) * sizeof(T)));
    GPU_CHECK(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~buffer() { cudaFree(p); }
  buffer(const buffer&) = delete;
  std::vector<T> get() const {
    std::vector<T> h(n);
    GPU_CHECK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
  /// The pointer as the generated launchers take it (tilecc::half → __half, same bits).
  template <class D>
  D* as(std::size_t offset = 0) const {
    return reinterpret_cast<D*>(p + offset);
  }
};

inline void sync() {
  GPU_CHECK(cudaGetLastError());
  GPU_CHECK(cudaDeviceSynchronize());
}

/// Relative error of gpu against the host twin's output; elements the twin left untouched
/// (NaN poison) must be untouched on the GPU too.
template <class T>
double compare(const std::vector<T>& gpuOut, const std::vector<T>& twin, bool& untouchedOk) {
  sample::error_meter err;
  untouchedOk = true;
  for (std::size_t i = 0; i < twin.size(); ++i) {
    const double t = sample::to_double(twin[i]), g = sample::to_double(gpuOut[i]);
    if (std::isnan(t)) {
      untouchedOk &= std::isnan(g);
      continue;
    }
    if (std::isinf(t) && g == t) continue;  // the same infinity
    err.add(g, t);
  }
  return err.value();
}

template <class T>
void check(sample::report& rep, const std::string& what, const std::vector<T>& gpuOut, const std::vector<T>& twin,
           double tol) {
  bool untouched = true;
  const double e = compare(gpuOut, twin, untouched);
  rep.check(what.c_str(), e, tol);
  rep.expect((what + ": same elements written").c_str(), untouched);
}

}  // namespace gpu
