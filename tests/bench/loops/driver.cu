// Times the bench kernels (one translation per binary: BENCH_H, the header tilecc wrote for loops.tile.cpp) with CUDA events: 5 warm-up
// launches, the median of 30; checks 512 sampled outputs against a double-precision reference.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

#include BENCH_H

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1); } } while (0)

static float median_ms(const std::function<void()>& f) {
  cudaEvent_t s, e;
  CK(cudaEventCreate(&s));
  CK(cudaEventCreate(&e));
  for (int i = 0; i < 5; ++i) f();
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < 30; ++i) {
    CK(cudaEventRecord(s));
    f();
    CK(cudaEventRecord(e));
    CK(cudaEventSynchronize(e));
    float ms;
    CK(cudaEventElapsedTime(&ms, s, e));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const char* tag = argc > 1 ? argv[1] : "?";
  std::mt19937 gen(1234);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  const int BK = 64;
  for (int size : {4096, 4000}) {
    const int M = size, N = size, K = size;
    std::vector<__nv_bfloat16> ha(size_t(M) * K), hb(size_t(K) * N);
    std::vector<double> fa(ha.size()), fb(hb.size());
    for (size_t i = 0; i < ha.size(); ++i) { ha[i] = __float2bfloat16(u(gen)); fa[i] = __bfloat162float(ha[i]); }
    for (size_t i = 0; i < hb.size(); ++i) { hb[i] = __float2bfloat16(u(gen)); fb[i] = __bfloat162float(hb[i]); }
    __nv_bfloat16 *da, *db;
    float* dc;
    CK(cudaMalloc(&da, ha.size() * 2));
    CK(cudaMalloc(&db, hb.size() * 2));
    CK(cudaMalloc(&dc, size_t(M) * N * 4));
    CK(cudaMemcpy(da, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
    const int kblocks = (K + BK - 1) / BK, mblocks = (M + 127) / 128;
    const dim3 grid(mblocks, (N + 127) / 128);
    // active(i, kb): whether K block kb counts for row i (count: how many times, for lists).
    auto check = [&](const std::function<int(int, int)>& times) {
      std::vector<float> hc(size_t(M) * N);
      CK(cudaMemcpy(hc.data(), dc, hc.size() * 4, cudaMemcpyDeviceToHost));
      double worst = 0;
      std::mt19937 g2(99);
      for (int s = 0; s < 512; ++s) {
        const int i = int(g2() % M), j = int(g2() % N);
        double ref = 0, mag = 1e-30;
        for (int kb = 0; kb < kblocks; ++kb) {
          const int n = times(i, kb);
          if (!n) continue;
          for (int k = kb * BK; k < std::min(K, kb * BK + BK); ++k) {
            ref += n * fa[size_t(i) * K + k] * fb[size_t(k) * N + j];
            mag += n * std::fabs(fa[size_t(i) * K + k] * fb[size_t(k) * N + j]);
          }
        }
        worst = std::max(worst, std::fabs(hc[size_t(i) * N + j] - ref) / mag);
      }
      return worst;
    };
    auto report = [&](const char* what, double density, float ms, double err) {
      const double flops = 2.0 * M * N * double(K) * density;
      std::printf("%-5s %-22s %5dx%5dx%5d density %.2f  %8.3f ms  %7.1f TFLOP/s  err %.1e %s\n", tag, what, M, N, K, density, ms,
                  flops / ms / 1e9, err, err < 1e-5 ? "ok" : "FAIL");
    };
    for (double d : {1.0, 0.5, 0.1}) {
      std::vector<uint8_t> mask(size_t(mblocks) * kblocks);
      std::uniform_real_distribution<double> p(0, 1);
      size_t on = 0;
      for (auto& m : mask) on += (m = p(gen) < d ? 1 : 0);
      uint8_t* dm;
      CK(cudaMalloc(&dm, mask.size()));
      CK(cudaMemcpy(dm, mask.data(), mask.size(), cudaMemcpyHostToDevice));
      const float ms = median_ms([&] { CK(launch_sparse_gemm_128_128_64(grid, nullptr, da, db, dm, dc, M, N, K)); });
      CK(cudaDeviceSynchronize());
      report("block-sparse", double(on) / mask.size(), ms, check([&](int i, int kb) { return int(mask[size_t(i / 128) * kblocks + kb]); }));
      CK(cudaFree(dm));
      // The same blocks as a list (row block 0's pattern for every program).
      std::vector<int> list;
      for (int kb = 0; kb < kblocks; ++kb)
        if (mask[kb]) list.push_back(kb);
      int* dl;
      CK(cudaMalloc(&dl, std::max<size_t>(1, list.size()) * 4));
      CK(cudaMemcpy(dl, list.data(), list.size() * 4, cudaMemcpyHostToDevice));
      const int n = int(list.size());
      const float ms2 = median_ms([&] { CK(launch_listed_gemm_128_128_64(grid, nullptr, da, db, dl, n, dc, M, N, K)); });
      CK(cudaDeviceSynchronize());
      report("listed K blocks", double(n) / kblocks, ms2, check([&](int, int kb) { return int(mask[kb]); }));
      CK(cudaFree(dl));
    }
    const float up = median_ms([&] { CK(launch_dir_gemm_128_128_64_false(grid, nullptr, da, db, dc, M, N, K)); });
    CK(cudaDeviceSynchronize());
    report("K ascending", 1.0, up, check([](int, int) { return 1; }));
    const float down = median_ms([&] { CK(launch_dir_gemm_128_128_64_true(grid, nullptr, da, db, dc, M, N, K)); });
    CK(cudaDeviceSynchronize());
    report("K descending", 1.0, down, check([](int, int) { return 1; }));
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
  }
  return 0;
}
