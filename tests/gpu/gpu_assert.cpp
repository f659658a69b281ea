// A failing assert() in a translated kernel: the launch fails with cudaErrorAssert (the device
// printed the source's condition, file and line). A failed device assert ends the CUDA context,
// so this runs in its own process, apart from gpu_v1 where the same kernel's asserts hold.
#include "v1_kernels.h"

#include "gpu_check.hpp"

int main() {
  gpu::require_gpu();
  std::vector<float> x(256, 1.0f), y(256, 0.0f);
  gpu::buffer<float> dx(x), dy(y);
  GPU_CHECK(launch_checked_scale(dim3(1), nullptr, dx.p, dy.p, 256, 0.0f));  // s == 0 fails the helper's assert
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("checked_scale with s = 0: %s\n", cudaGetErrorString(e));
  if (e != cudaErrorAssert) {
    std::printf("FAIL: expected cudaErrorAssert\n");
    return 1;
  }
  std::printf("PASS: the failed assert stopped the kernel\n");
  return 0;
}
