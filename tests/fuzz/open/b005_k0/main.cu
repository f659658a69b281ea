#include "b005.h"
#include <cstdio>
#include <vector>
#include <cuda_bf16.h>
template <class T> T* dev(size_t n, T v) { T* h = new T[n]; for (size_t i = 0; i < n; ++i) h[i] = v; T* p; cudaMalloc(&p, n * sizeof(T)); cudaMemcpy(p, h, n * sizeof(T), cudaMemcpyHostToDevice); return p; }
int main() {
  for (int nt0 : {-2, 3}) {
    int* out = dev<int>(64, -1);
    unsigned* in9 = dev<unsigned>(4096, 5u);
    cudaError_t e = launch_b005_k0(dim3(2), nullptr, nt0, 100, dev<int8_t>(8192, 1), 50, dev<__nv_bfloat16>(8192, __float2bfloat16(1.f)), dev<__nv_bfloat16>(8192, __float2bfloat16(1.f)), dev<bool>(8192, true), dev<unsigned>(8192, 1u), dev<bool>(8192, true), in9, out);
    cudaError_t s = cudaDeviceSynchronize();
    int h[2]; cudaMemcpy(h, out, 8, cudaMemcpyDeviceToHost);
    std::printf("nt0=%d launch=%s sync=%s out=%d %d (twin: 877 877)\n", nt0, cudaGetErrorString(e), cudaGetErrorString(s), h[0], h[1]);
  }
}
