// Uses the kernels through their launchers' headers, like any user code. Without a GPU it says
// so and succeeds: the build is what the package test checks.
#include "add.h"
#include "scale.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("user_app: no GPU, nothing run\n");
    return 0;
  }
  const int n = 1000003;
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97) * 0.25f;
    y[i] = static_cast<float>(i % 13) - 6.0f;
  }
  float *dx, *dy, *dout;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int bad = 0;
  if (launch_add(dim3((n + 511) / 512), nullptr, dx, dy, dout, n) != cudaSuccess) return 1;
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) bad += out[i] != x[i] + y[i];
  if (launch_scale(dim3((n + 255) / 256), nullptr, dx, dout, n) != cudaSuccess) return 1;
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) bad += std::fabs(out[i] - 2.0f * x[i]) > 0.0f;
  std::printf("user_app: %d mismatches in %d elements\n", bad, 2 * n);
  return bad == 0 ? 0 : 1;
}
