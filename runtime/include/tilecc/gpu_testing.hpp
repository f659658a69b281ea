// GPU side of the test helpers: run a translated kernel and its host twin on the same fresh
// random inputs and compare (host C++ against the CUDA runtime API: include directories of
// CUDA::cudart). Exits 77 where no GPU is present if TILECC_SKIP_CODE=77 is set (CTest's
// SKIP_RETURN_CODE), else 0.
//
//   #include "my_kernels.tile.cpp"          // the kernels, for the host twin: first (see below)
//   #include "my_kernels.h"                 // launchers
//   #include <tilecc/gpu_testing.hpp>
//   namespace tt = tilecc::testing;
//   int main() {
//     tt::gpu::require_gpu();
//     tt::report rep("scale");
//     tt::rng r;
//     const int n = 5000 + r.range(0, 1000);                       // ragged
//     auto x = tt::random_vector<float>(r, n);
//     std::vector<float> out(n + 7, tt::poison<float>()), twin = out;  // beyond n: must stay NaN
//     tilecc::host::launch(cdiv(n, 256), scale, x.data(), twin.data(), n);
//     tt::gpu::buffer<float> dx(x), dout(out);
//     TILECC_CUDA_CHECK(launch_scale(dim3(cdiv(n, 256)), nullptr, dx.p, dout.p, n));
//     tt::gpu::sync();
//     rep.compare_outputs("scale vs host twin", dout.get(), twin, 1e-6);
//     return rep.finish();
//   }
//
// The kernel source goes before the launcher header: the header includes <cuda_fp16.h>, whose
// global `half` would make a kernel's `half` (tilecc::half through `using namespace tilecc`)
// ambiguous if it came first.
#pragma once

#include <tilecc/testing.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

/// Exits with a message naming the call, file and line when a CUDA runtime call fails.
#define TILECC_CUDA_CHECK(call)                                                                           \
  do {                                                                                                    \
    const cudaError_t e_ = (call);                                                                        \
    if (e_ != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

namespace tilecc::testing::gpu {

/// Returns where a GPU is present (printing its name); else exits as a skipped test.
inline void require_gpu() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("No CUDA device here: the GPU run is skipped.\n");
    const char* code = std::getenv("TILECC_SKIP_CODE");
    std::exit(code ? std::atoi(code) : 0);
  }
  cudaDeviceProp prop{};
  TILECC_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
}

/// A device copy of a host vector; get() copies it back.
template <class T>
struct buffer {
  T* p = nullptr;
  std::size_t n = 0;
  explicit buffer(const std::vector<T>& h) : n(h.size()) {
    TILECC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(1, n) * sizeof(T)));
    TILECC_CUDA_CHECK(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~buffer() { cudaFree(p); }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  std::vector<T> get() const {
    std::vector<T> h(n);
    TILECC_CUDA_CHECK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
  /// The pointer as the generated launchers take it (tilecc::half → __half: the same bits).
  template <class D>
  D* as(std::size_t offset = 0) const {
    return reinterpret_cast<D*>(p + offset);
  }
};

/// Waits for the device; exits on any error a launch left.
inline void sync() {
  TILECC_CUDA_CHECK(cudaGetLastError());
  TILECC_CUDA_CHECK(cudaDeviceSynchronize());
}

/// The variant of a generated launcher that `launch` took (its kernel's name), read from the
/// launchers' TILECC_LOG_LAUNCH=1 trace on stderr (set the variable before the first launch: it
/// is read once). A launcher writes a line only when its choice changes, so the last choice seen
/// stands otherwise (empty before any). Not thread-safe: it redirects stderr around `launch`.
inline std::string& last_launched_variant() {
  static std::string current;  // one for every call site: the trace is one stream
  return current;
}
template <class F>
std::string launched_variant(F&& launch) {
  std::string& current = last_launched_variant();
  std::fflush(stderr);
  char path[] = "/tmp/tilecc_launch_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    launch();
    return current;
  }
  const int saved = dup(2);
  dup2(fd, 2);
  launch();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (const auto at = line.find(" launches "); at != std::string::npos) current = line.substr(at + 10);
  close(fd);
  unlink(path);
  return current;
}

}  // namespace tilecc::testing::gpu
