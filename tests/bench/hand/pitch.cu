// Hand experiment: the fp16 128x256 GEMM at ragged sizes and padded row pitches, through the
// launcher and (for comparison) its cp.async variant launched directly. Build on this machine:
//   nvcc -std=c++17 -O3 -arch=sm_90a -I runtime/include -I build/samples/tilecc/matmul_kernels \
//        tests/bench/hand/pitch.cu -o pitch
// (pitch.cu includes the generated matmul.cu). Prints one line per (size, pitch, variant); `pitch S P` runs one.
#include "matmul.cu"
#include <tilecc/bench.hpp>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {
__global__ void fill(__half* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = __float2half(float((i * 2654435761u + seed) % 2001u) / 1000.0f - 1.0f);
}
void run(int S, int pitch, bool direct) {
  const size_t n = size_t(S) * pitch;
  __half *a, *b, *c;
  cudaMalloc(&a, n * 2), cudaMalloc(&b, n * 2), cudaMalloc(&c, n * 2);
  fill<<<1024, 256>>>(a, n, 1), fill<<<1024, 256>>>(b, n, 2);
  const dim3 grid(((S + 127) / 128) * ((S + 255) / 256));
  auto launch = [&] {
    if (!direct) return launch_matmul_half_128_256_64_8_false_none(grid, nullptr, a, b, c, nullptr, S, S, S, pitch, pitch, pitch);
    cudaFuncSetAttribute(::tilecc_kernels::matmul_half_128_256_64_8_false_none_sm90a_aligned,
                         cudaFuncAttributeMaxDynamicSharedMemorySize, 147456);
    ::tilecc_kernels::matmul_half_128_256_64_8_false_none_sm90a_aligned<<<grid, 256, 147456>>>(a, b, c, nullptr, S, S, S, pitch,
                                                                                                  pitch, pitch);
    return cudaGetLastError();
  };
  const tilecc::bench::stats s = tilecc::bench::time(launch);
  std::printf("S %5d pitch %5d (pitch bytes mod 128: %3d) %-10s %9.4f ms %7.1f TFLOP/s%s\n", S, pitch, (pitch * 2) % 128,
              direct ? "cp.async" : "launcher", s.median_ms, 2.0 * S * S * S / s.median_ms / 1e9,
              s.error != cudaSuccess ? " ERROR" : "");
  cudaFree(a), cudaFree(b), cudaFree(c);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc == 3) {  // one size and pitch, through the launcher (for ncu)
    run(std::atoi(argv[1]), std::atoi(argv[2]), false);
    return 0;
  }
  for (int S : {4096, 4104})
    for (int pitch : {4104, 4112, 4128, 4160}) run(S, pitch, false);
  run(4096, 4096, false);
  run(4104, 4104, true);
  run(4096, 4096, true);
  run(4000, 4000, false);
  run(4000, 4032, false);
  return 0;
}
