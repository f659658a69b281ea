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
