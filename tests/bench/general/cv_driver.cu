// Times the cv.tile.cpp kernels (one translation per binary) and checks them against fp64 loops.
#include "cv.h"

#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

static std::mt19937 rng(42);
static float urand() { return std::uniform_real_distribution<float>(-1.f, 1.f)(rng); }
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

template <class T> T* dev(const std::vector<T>& h) { T* p; CK(cudaMalloc(&p, h.size() * sizeof(T))); CK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); return p; }
template <class T> std::vector<T> host(const T* p, size_t n) { std::vector<T> h(n); CK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost)); return h; }

static float timeit(const std::function<void()>& f) {
  for (int i = 0; i < 10; ++i) f();
  CK(cudaDeviceSynchronize());
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> ms;
  for (int r = 0; r < 30; ++r) {
    cudaEventRecord(a); for (int i = 0; i < 5; ++i) f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float t; cudaEventElapsedTime(&t, a, b); ms.push_back(t / 5);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2] * 1000.f;
}
static int fails = 0;
static void report(const char* name, double err, double tol, float us) {
  bool ok = err <= tol; if (!ok) ++fails;
  printf("%-34s %10.2f us  maxerr %.3g %s\n", name, us, err, ok ? "ok" : "FAIL");
}

template <int BH, int BW, class L>
void pool(const char* name, L launch, int NC, int H, int W, int KS, int ST, int PD) {
  int OH = (H + 2 * PD - KS) / ST + 1, OW = (W + 2 * PD - KS) / ST + 1;
  std::vector<float> x((size_t)NC * H * W); for (auto& v : x) v = urand();
  float* dx = dev(x); float *dm, *da; CK(cudaMalloc(&dm, (size_t)NC * OH * OW * 4)); CK(cudaMalloc(&da, (size_t)NC * OH * OW * 4));
  dim3 g((OW + BW - 1) / BW, (OH + BH - 1) / BH, NC);
  auto f = [&] { CK(launch(g, 0, dx, dm, da, H, W, OH, OW, KS, ST, PD)); };
  f(); CK(cudaDeviceSynchronize());
  auto m = host(dm, (size_t)NC * OH * OW), a = host(da, (size_t)NC * OH * OW);
  double err = 0;
  for (int p = 0; p < NC; p += 7) for (int i = 0; i < OH; ++i) for (int j = 0; j < OW; ++j) {
    double mx = -INFINITY, s = 0; int c = 0;
    for (int u = 0; u < KS; ++u) for (int v = 0; v < KS; ++v) { int y = i * ST - PD + u, z = j * ST - PD + v;
      if (y >= 0 && y < H && z >= 0 && z < W) { double e = x[(size_t)p * H * W + y * W + z]; mx = std::max(mx, e); s += e; ++c; } }
    size_t o = (size_t)p * OH * OW + i * OW + j;
    err = std::max(err, std::fabs(m[o] - mx)); err = std::max(err, std::fabs(a[o] - s / std::max(c, 1)));
  }
  report(name, err, 1e-5, timeit(f));
  cudaFree(dx); cudaFree(dm); cudaFree(da);
}

template <int BC, int BL, class L>
void cc1d(const char* name, L launch, int B, int C, int Lx, int KW) {
  std::vector<__nv_bfloat16> x((size_t)B * C * Lx); std::vector<float> xf(x.size());
  for (size_t i = 0; i < x.size(); ++i) { x[i] = __float2bfloat16(urand()); xf[i] = __bfloat162float(x[i]); }
  std::vector<float> w((size_t)C * KW), bias(C); for (auto& v : w) v = urand() * 0.5f; for (auto& v : bias) v = urand();
  auto dx = dev(x); auto dw = dev(w); auto db = dev(bias); __nv_bfloat16* dy; CK(cudaMalloc(&dy, x.size() * 2));
  dim3 g((Lx + BL - 1) / BL, (C + BC - 1) / BC, B);
  auto f = [&] { CK(launch(g, 0, dx, dw, db, dy, C, Lx, KW)); };
  f(); CK(cudaDeviceSynchronize());
  auto y = host(dy, x.size());
  double err = 0;
  for (int b = 0; b < B; ++b) for (int c = 0; c < C; c += 5) for (int t = 0; t < Lx; ++t) {
    double a = bias[c];
    for (int j = 0; j < KW; ++j) { int s = t - (KW - 1) + j; if (s >= 0) a += (double)w[c * KW + j] * xf[((size_t)b * C + c) * Lx + s]; }
    double r = a / (1 + std::exp(-a)); double g2 = __bfloat162float(y[((size_t)b * C + c) * Lx + t]);
    err = std::max(err, std::fabs(g2 - r) / (1 + std::fabs(r)));
  }
  report(name, err, 1e-2, timeit(f));
  cudaFree(dx); cudaFree(dw); cudaFree(db); cudaFree(dy);
}

template <int BH, int BW, class L>
void dw(const char* name, L launch, int N, int C, int H, int W) {
  size_t n = (size_t)N * C * H * W;
  std::vector<__half> x(n); std::vector<float> xf(n); for (size_t i = 0; i < n; ++i) { x[i] = __float2half(urand()); xf[i] = __half2float(x[i]); }
  std::vector<float> w((size_t)C * 9); for (auto& v : w) v = urand();
  auto dx = dev(x); auto dwt = dev(w); __half* dy; CK(cudaMalloc(&dy, n * 2));
  dim3 g((W + BW - 1) / BW, (H + BH - 1) / BH, N * C);
  auto f = [&] { CK(launch(g, 0, dx, dwt, dy, C, H, W)); };
  f(); CK(cudaDeviceSynchronize());
  auto y = host(dy, n);
  double err = 0;
  for (int p = 0; p < N * C; p += 11) for (int i = 0; i < H; ++i) for (int j = 0; j < W; ++j) {
    double a = 0; int c = p % C;
    for (int u = 0; u < 3; ++u) for (int v = 0; v < 3; ++v) { int yy = i + u - 1, z = j + v - 1;
      if (yy >= 0 && yy < H && z >= 0 && z < W) a += (double)w[c * 9 + u * 3 + v] * xf[(size_t)p * H * W + yy * W + z]; }
    err = std::max(err, std::fabs(__half2float(y[(size_t)p * H * W + i * W + j]) - a) / (1 + std::fabs(a)));
  }
  report(name, err, 5e-3, timeit(f));
  cudaFree(dx); cudaFree(dwt); cudaFree(dy);
}

int main() {

  pool<8, 32>("pool2d<8,32> 3x3 s1 256x112x112", launch_pool2d_8_32, 256, 112, 112, 3, 1, 1);
  pool<8, 32>("pool2d<8,32> 3x3 s2 256x112x112", launch_pool2d_8_32, 256, 112, 112, 3, 2, 1);
  pool<16, 64>("pool2d<16,64> 3x3 s1 256x112x112", launch_pool2d_16_64, 256, 112, 112, 3, 1, 1);
  pool<16, 64>("pool2d<16,64> 3x3 s2 256x112x112", launch_pool2d_16_64, 256, 112, 112, 3, 2, 1);
  pool<8, 32>("pool2d<8,32> 3x3 s1 ragged 250x109x113", launch_pool2d_8_32, 250, 109, 113, 3, 1, 1);
  cc1d<16, 128>("causal_conv1d<16,128> 8x1024x4096", launch_causal_conv1d_16_128, 8, 1024, 4096, 4);
  cc1d<4, 256>("causal_conv1d<4,256> 8x1024x4096", launch_causal_conv1d_4_256, 8, 1024, 4096, 4);
  cc1d<16, 128>("causal_conv1d<16,128> ragged 3x1000x4093", launch_causal_conv1d_16_128, 3, 1000, 4093, 4);
  dw<16, 64>("dwconv3x3<16,64> 8x64x112x112", launch_dwconv3x3_16_64, 8, 64, 112, 112);
  dw<8, 128>("dwconv3x3<8,128> 8x64x112x112", launch_dwconv3x3_8_128, 8, 64, 112, 112);
  dw<16, 64>("dwconv3x3<16,64> ragged 3x37x111x117", launch_dwconv3x3_16_64, 3, 37, 111, 117);
  printf("%s\n", fails ? "FAILURES" : "all ok");
  return fails ? 1 : 0;
}
