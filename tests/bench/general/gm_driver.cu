// General-variant GEMMs (arguments that fail the aligned variants' checks) against the aligned.
#include "gm.h"
#include <cuda_fp16.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
typedef cudaError_t (*L)(dim3, cudaStream_t, const __half*, const __half*, __half*, int, int, int, int, int, int, int, int, int);
static int fails = 0;
static void run(const char* name, L launch, int BM, int BN, int M, int N, int K, int lda, int ldb) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> U(-1, 1);
  std::vector<__half> a((size_t)M * lda), b((size_t)K * ldb);
  for (auto& v : a) v = __float2half(U(rng));
  for (auto& v : b) v = __float2half(U(rng));
  __half *da, *db, *dc;
  CK(cudaMalloc(&da, a.size() * 2)); CK(cudaMalloc(&db, b.size() * 2)); CK(cudaMalloc(&dc, (size_t)M * N * 2));
  CK(cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
  dim3 g(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
  auto f = [&] { CK(launch(g, 0, da, db, dc, M, N, K, lda, 1, ldb, 1, N, 1)); };
  f(); CK(cudaDeviceSynchronize());
  std::vector<__half> c((size_t)M * N); CK(cudaMemcpy(c.data(), dc, c.size() * 2, cudaMemcpyDeviceToHost));
  double err = 0;
  for (int t = 0; t < 3000; ++t) {
    int i = (int)(rng() % M), j = (int)(rng() % N);
    if (t < 4) { i = t < 2 ? 0 : M - 1; j = t % 2 ? N - 1 : 0; }
    double r = 0; for (int k = 0; k < K; ++k) r += (double)__half2float(a[(size_t)i * lda + k]) * __half2float(b[(size_t)k * ldb + j]);
    err = std::max(err, std::fabs(__half2float(c[(size_t)i * N + j]) - r) / (1 + std::fabs(r)));
  }
  for (int i = 0; i < 5; ++i) f();
  CK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int r = 0; r < 15; ++r) { cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float t; cudaEventElapsedTime(&t, e0, e1); ms.push_back(t); }
  std::sort(ms.begin(), ms.end());
  double tf = 2.0 * M * N * K / (ms[ms.size() / 2] * 1e-3) / 1e12;
  bool ok = err < 2e-2; if (!ok) ++fails;
  printf("%-44s %9.3f ms %7.1f TFLOP/s  err %.2g %s\n", name, ms[ms.size() / 2], tf, err, ok ? "ok" : "FAIL");
  cudaFree(da); cudaFree(db); cudaFree(dc);
}
int main() {
  run("128x256 lm_head 4096x50257x1024 (ldb odd)", launch_tut_matmul_half_128_256_64_8_8_3_false, 128, 256, 4096, 50257, 1024, 1024, 50257);
  run("128x256 4096x4096x4095 (lda odd)", launch_tut_matmul_half_128_256_64_8_8_3_false, 128, 256, 4096, 4096, 4095, 4095, 4096);
  run("128x256 4096^3 (aligned, reference)", launch_tut_matmul_half_128_256_64_8_8_3_false, 128, 256, 4096, 4096, 4096, 4096, 4096);
  run("128x128 lm_head 4096x50257x1024 (ldb odd)", launch_tut_matmul_half_128_128_64_8_8_3_false, 128, 128, 4096, 50257, 1024, 1024, 50257);
  run("128x128 4096x4096x4095 (lda odd)", launch_tut_matmul_half_128_128_64_8_8_3_false, 128, 128, 4096, 4096, 4095, 4095, 4096);
  run("64x256 4096x4096x4095 (lda odd)", launch_tut_matmul_half_64_256_32_8_4_4_false, 64, 256, 4096, 4096, 4095, 4095, 4096);
  run("128x256 ragged 1000x999x77 (lda odd)", launch_tut_matmul_half_128_256_64_8_8_3_false, 128, 256, 1000, 999, 77, 77, 999);
  printf("%s\n", fails ? "FAILURES" : "all ok");
  return fails ? 1 : 0;
}
