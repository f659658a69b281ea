// Contract v1 integer promotion: the operands convert to the type the header computes in
// (tile<int> with an int64_t scalar or an int64_t tile computes in i64; int literals do not
// widen a tile), so the IR's operand types agree with the result type Clang gives.
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel @offsets
// CHECK: %[[I:.*]] = arange : tile<16xi32>
// CHECK: %[[W:.*]] = convert %[[I]] : tile<16xi64>
// CHECK: %[[B:.*]] = splat %big : tile<16xi64>
// CHECK: %offs = binary.add %[[W]], %[[B]] : tile<16xi64>
// CHECK: %mixed = binary.mul %{{.*}}, %{{.*}} : tile<16xi64>
// CHECK: %small = binary.add %[[I]], %{{.*}} : tile<16xi32>
// CHECK: %cmp = binary.lt %{{.*}}, %{{.*}} : tile<16xi1>
// CHECK: select {{.*}} : tile<16xi64>
TILECC_KERNEL(num_warps = 1)
void offsets(const float* x, float* out, int64_t big) {
  auto offs = arange<16>() + big;
  auto mixed = cast<int64_t>(arange<16>()) * arange<16>();
  auto small = arange<16>() + 5;
  auto cmp = small < big;
  auto pick = where(cmp, small, big);
  store(out + offs - big + mixed - mixed + pick - pick, load(x + small - 5));
}
