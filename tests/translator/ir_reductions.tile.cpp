// Reductions: accumulation types and axes.
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel @reduce
// CHECK: %[[H:.*]] = load {{.*}} : tile<64x128xf16>
// CHECK: %[[F:.*]] = convert %[[H]] : tile<64x128xf32>
// CHECK: reduce.sum %[[F]] [axis=1] : tile<64xf32>
// CHECK: reduce.argmax %[[H]] [axis=0] : tile<128xi32>
// CHECK: reduce.max %{{.*}} [axis=0] : f16
TILECC_KERNEL(num_warps = 8)
void reduce(const half* x, float* rows, int* arg, half* best) {
  auto t = load(x + col(arange<64>()) * 128 + row(arange<128>()));
  store(rows + arange<64>(), sum<1>(t));
  store(arg + arange<128>(), argmax<0>(t));
  store(best, max(max<1>(t)));
}

// max/min of a splat is its value, and an op of two splats a splat (`full(50) + 50`, folded
// here from constants): no reduction, and no shuffles, where CUDA 13.0's ptxas miscompiled
// `c - s` after a constant's max through shuffles (fuzz batch seed 45).
// CHECK-LABEL: kernel @of_splat
// CHECK-NOT: reduce.max
// CHECK-NOT: reduce.min
// CHECK: store
TILECC_KERNEL(num_warps = 4)
void of_splat(int* out, int n) {
  store(out + arange<64>(), max(full<int, 32>(50) + 50) - arange<64>() + min<1>(full<int, 64, 8>(n)));
}

// Tile integers wrap where scalar ones do not: an addition of two splats of run-time values stays
// a tile op (only constants fold).
// CHECK-LABEL: kernel @splat_wrap
// CHECK: binary.add %{{.*}}, %{{.*}} : tile<8xi32>
TILECC_KERNEL(num_warps = 1)
void splat_wrap(int* out, int n, int m) {
  store(out + arange<8>(), full<int, 8>(n) + m);
}
