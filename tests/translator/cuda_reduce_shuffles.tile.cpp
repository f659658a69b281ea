// Lane shuffles of a reduction are statements of their own, never inside min/max's conditional
// expression: there only the lanes that take that branch would execute the shuffle, while its
// mask names the whole warp (undefined: stale values or a hang). Found by the GPU fuzz batch
// (seed 23, b005_k0: an unsigned min read another reduction's registers, 622 instead of 877).
// ARGS: -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 1)
void int_min_max(const int* x, const unsigned* u, int* out) {
  store(out, min(load(x + arange<32>())));
  store(out + 1, cast<int>(max(load(u + arange<32>()))));
}
// CHECK-LABEL: void __launch_bounds__(32) int_min_max(
// CHECK-NOT: ? {{.*}}__shfl
// CHECK: const int other = __shfl_xor_sync(0xffffffffu, {{.*}}, 1);
// CHECK-NEXT: {{.*}} = ({{.*}} < other ? {{.*}} : other);
// CHECK-NOT: ? {{.*}}__shfl
// CHECK: const unsigned other = __shfl_xor_sync(0xffffffffu, {{.*}}, 1);
// CHECK-NEXT: {{.*}} = ({{.*}} > other ? {{.*}} : other);
// CHECK-NOT: ? {{.*}}__shfl
// CHECK-LABEL: cudaError_t launch_int_min_max(
