// The launcher checks a unit-stride assumption with one comparison per launch, beside the
// alignment checks, and falls back to the general kernel.
// ARGS: -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void scale_row(const float* x, float* y, int64_t stride, float s) {
  auto j = arange<256>();
  store(y + j, load(x + j * stride) * s);
}
// CHECK: // Specialised variant: the launcher picks it when x is aligned to 16, y is aligned to 16, stride == 1.
// CHECK-LABEL: cudaError_t launch_scale_row(dim3 grid, cudaStream_t stream, const float* x, float* y, int64_t stride, float s) {
// CHECK: if (reinterpret_cast<uintptr_t>(x) % 16 == 0 && reinterpret_cast<uintptr_t>(y) % 16 == 0 && stride == 1) {
// CHECK-NEXT: tilecc::log_launch("launch_scale_row", "scale_row_aligned");  // TILECC_LOG_LAUNCH=1 traces the choice
// CHECK-NEXT: ::tilecc_kernels::scale_row_aligned<<<grid, 128, 0, stream>>>(x, y, stride, s);
// CHECK: ::tilecc_kernels::scale_row<<<grid, 128, 0, stream>>>(x, y, stride, s);
