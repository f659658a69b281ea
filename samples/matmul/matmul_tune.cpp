// Tunes the fp16 matmul family (matmul_half_false_none: the instantiations of
// matmul<half, BM, BN, BK, GROUP_M, false, none>) on this machine's GPU at the shapes below and
// writes the tuning table given as the first argument (default matmul.tune). Inputs are
// generated: uniform random fp16 in [-1, 1], fresh per shape. The build's
// matmul_kernels_retune target runs it on samples/matmul/matmul.tune.
#include "matmul.h"

#include <tilecc/tune.hpp>

#include <cuda_fp16.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

__half* randomHalves(std::size_t n, std::mt19937& gen) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<__half> h(n);
  for (auto& x : h) x = __float2half(u(gen));
  __half* d = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&d), n * sizeof(__half)) != cudaSuccess) return nullptr;
  cudaMemcpy(d, h.data(), n * sizeof(__half), cudaMemcpyHostToDevice);
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "matmul.tune";
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "matmul_tune: no GPU: nothing tuned, %s unchanged\n", path.c_str());
    return 1;
  }
  struct Shape {
    int M, N, K;
  };
  // Square, skinny (many rows) and K-heavy: the shapes whose best tiles differ.
  const Shape shapes[] = {{1024, 1024, 1024}, {4096, 4096, 4096}, {8192, 8192, 8192}, {16384, 1024, 1024}, {1024, 1024, 16384}};
  std::mt19937 gen(20261126);
  tilecc::tune::table table;
  for (const Shape& s : shapes) {
    __half* a = randomHalves(std::size_t(s.M) * s.K, gen);
    __half* b = randomHalves(std::size_t(s.K) * s.N, gen);
    __half* c = nullptr;
    if (!a || !b || cudaMalloc(reinterpret_cast<void**>(&c), std::size_t(s.M) * s.N * sizeof(__half)) != cudaSuccess) {
      std::fprintf(stderr, "matmul_tune: out of device memory at %dx%dx%d\n", s.M, s.N, s.K);
      return 1;
    }
    // C starts as NaN (all bits set) before each configuration's checked run, so one that
    // leaves elements unwritten fails the comparison. 65536 elements spread over C are compared.
    const std::size_t bytes = std::size_t(s.M) * s.N * sizeof(__half);
    cudaMemset(c, 0xff, bytes);
    auto output = [&] {
      const std::size_t n = std::size_t(s.M) * s.N, step = n / 65536 + 1;
      std::vector<__half> all(n);
      cudaMemcpy(all.data(), c, bytes, cudaMemcpyDeviceToHost);
      cudaMemset(c, 0xff, bytes);
      std::vector<double> out;
      for (std::size_t i = 0; i < n; i += step) out.push_back(__half2float(all[i]));
      return out;
    };
    auto launch = [&](int config) {
      return launch_matmul_half_false_none_config(config, nullptr, a, b, c, nullptr, s.M, s.N, s.K, s.K, s.N, s.N);
    };
    const tilecc::tune::shape_result r = tilecc::tune::tune_shape(
        "matmul_half_false_none", matmul_half_false_none_configs, matmul_half_false_none_config_count,
        {{"M", s.M}, {"N", s.N}, {"K", s.K}}, launch, output, 2e-2);
    tilecc::tune::print(r, stdout);
    table.add(r);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  if (!table.write(path)) {
    std::fprintf(stderr, "matmul_tune: cannot write %s\n", path.c_str());
    return 1;
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}
