// Parameter promises are checked by the launcher.
// ARGS: -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK: cudaError_t launch_k(dim3 grid, cudaStream_t stream, const float* a, int lda, float* out) {
// CHECK-NEXT: if (reinterpret_cast<uintptr_t>(a) % 16 != 0)
// CHECK-NEXT: return tilecc_broken_promise("k", "TILECC_ALIGNED(16) a"
// CHECK-NEXT: if (lda % 8 != 0)
// CHECK-NEXT: return tilecc_broken_promise("k", "TILECC_MULTIPLE_OF(8) lda"
// CHECK-NEXT: if (grid.x == 0 || grid.y == 0 || grid.z == 0) return cudaSuccess;
TILECC_KERNEL()
void k(TILECC_ALIGNED(16) const float* a, TILECC_MULTIPLE_OF(8) int lda, float* out) {
  store(out + arange<128>(), load(a + arange<128>() * lda));
}
