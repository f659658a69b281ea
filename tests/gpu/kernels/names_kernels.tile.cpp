// Identifiers a user may legally write that equal something tilecc generates or includes: kernel
// names of C library and CUDA functions, parameters named like the launcher's own variables,
// locals named like generated layout variables, temporaries and math functions. The generated
// CUDA must build warning-free and compute what the host twin computes (gpu_names.cpp).
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
void exp(const float* x, int* out) {
  auto v = load(x + arange<128>());  // argmax declares temporaries of its own
  store(out, argmax(v));
}

TILECC_KERNEL()
void expf(const float* x, float* out) {
  auto fmaxf = load(x + arange<128>());
  auto lane = fmaxf * 2.0f;
  auto L0_t0 = tilecc::exp(lane) + maximum(fmaxf, 0.0f);
  store(out + arange<128>(), L0_t0);
}

TILECC_KERNEL()
void launcher_names(const float* stream, float* grid, int uintptr_t, int cudaSuccess, int launcher_names, int64_t status) {
  auto L0_t1 = arange<128>() + uintptr_t;
  auto smem = L0_t1 * 2;
  store(grid + smem, load(stream + L0_t1) + cast<float>(cudaSuccess + launcher_names) + cast<float>(status));
}

TILECC_KERNEL()
void k(const float* x, float* y) { store(y + arange<128>(), load(x + arange<128>()) + 1.0f); }
TILECC_KERNEL()
void k_aligned(const float* x, float* y) { store(y + arange<128>(), load(x + arange<128>()) + 2.0f); }

TILECC_KERNEL()
void uninitialised(float* out, int n) {
  float s;  // assigned on both paths before use
  if (n > 3)
    s = 1.0f;
  else
    s = 2.0f;
  store(out, s);
}
