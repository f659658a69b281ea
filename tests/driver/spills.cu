// A kernel that spills (for driver.ptxas_serialised_wgmma_fails: the launcher's spill warning):
// 200 floats live in a thread of a 1024-thread program (64 registers at most).
namespace tilecc_kernels {
__global__ void __launch_bounds__(1024) spilling_kernel(float* p) {
  float a[200];
#pragma unroll
  for (int i = 0; i < 200; ++i) a[i] = p[i * threadIdx.x];
  float s = 0;
#pragma unroll
  for (int i = 0; i < 200; ++i) s += a[i] * a[199 - i] * p[i + 7];
  p[threadIdx.x] = s;
}
}  // namespace tilecc_kernels
