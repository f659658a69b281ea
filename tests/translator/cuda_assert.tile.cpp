// assert() in kernel code: a scalar check that the generated CUDA keeps with the source's text,
// file and line (the device assert: the launch fails with cudaErrorAssert), compiled out by
// NDEBUG when nvcc builds the .cu as it would be in the source. Inside a helper and a loop too.
// Tile conditions are rejected (a tile is never a condition).
// ARGS: -o -
#include <cassert>
#include <tilecc/tile.hpp>
using namespace tilecc;

inline float checked_scale(float s) {
  assert(s != 0.0f && "scale must be nonzero");
  return 1.0f / s;
}

// CHECK-LABEL: __global__ void __launch_bounds__(128) scale_checked(
// CHECK: const bool [[C:[a-z_0-9]+]] = {{.*}}n > 0
// CHECK-NEXT: #ifndef NDEBUG
// CHECK-NEXT: if (![[C]]) tilecc::assert_fail("n > 0", "cuda_assert.tile.cpp", [[@LINE+11]]);
// CHECK-NEXT: #else
// CHECK-NEXT: (void)[[C]];
// CHECK-NEXT: #endif
// CHECK: tilecc::assert_fail("s != 0.0f && \"scale must be nonzero\"", "cuda_assert.tile.cpp", 11);
// CHECK: for (
// CHECK: tilecc::assert_fail("k < steps", "cuda_assert.tile.cpp", [[@LINE+11]]);
TILECC_KERNEL(num_warps = 4)
void scale_checked(const float* x, float* y, int n, float s, int steps) {
  // The kernel's own asserts come first: one on the parameters, one in a helper.
  auto offs = program_id(0) * 256 + arange<256>();
  assert(n > 0);
  float inv = checked_scale(s);
  auto m = offs < n;
  auto v = load(x + offs, m);
  for (int k = 0; k < steps; ++k) {
    // A check on the loop counter, inside the loop.
    assert(k < steps);
    v = v * inv;
  }
  store(y + offs, v, m);
}
