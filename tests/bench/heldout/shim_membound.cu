// The memory-bound tutorial ports (membound.tile.cpp) behind a C interface for membound.py.
#include "membound.h"

#include <cuda_fp16.h>

extern "C" int hb_softmax(void* y, const void* x, int rows, int cols, int programs, void* stream) {
  return launch_hb_softmax_half_4096_8(dim3(programs), static_cast<cudaStream_t>(stream), static_cast<__half*>(y),
                                       static_cast<const __half*>(x), cols, cols, rows, cols);
}
extern "C" int hb_layernorm(const void* x, void* y, const void* w, const void* b, float* mean, float* rstd, int rows, int cols,
                            void* stream) {
  return launch_hb_layernorm_half_4096_8(dim3(rows), static_cast<cudaStream_t>(stream), static_cast<const __half*>(x),
                                         static_cast<__half*>(y), static_cast<const __half*>(w), static_cast<const __half*>(b), mean,
                                         rstd, cols, cols, 1e-5f);
}
extern "C" int hb_rmsnorm(void* y, const void* x, const void* w, float* rstd, int rows, int cols, void* stream) {
  return launch_hb_rmsnorm_half_4096_4(dim3(rows), static_cast<cudaStream_t>(stream), static_cast<__half*>(y), cols,
                                       static_cast<const __half*>(x), cols, static_cast<const __half*>(w), rstd, cols, 1e-6f);
}
