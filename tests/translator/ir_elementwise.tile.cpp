// Lowering of arange, broadcasting, scalar conversion, masked loads and stores.
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel @saxpy "saxpy" num_warps=4 num_stages=3 (%x: ptr<const f32>, %y: ptr<f32>, %a: f32, %n: i32) {
// CHECK: %[[PID:.*]] = program_id [axis=0] : i32
// CHECK: %[[BASE:.*]] = binary.mul %[[PID]], %{{.*}} : i32
// CHECK: %[[R:.*]] = arange : tile<256xi32>
// CHECK: %offs = binary.add %{{.*}}, %[[R]] : tile<256xi32>
// CHECK: %mask = binary.lt %offs, %{{.*}} : tile<256xi1>
// CHECK: load %{{.*}}, %mask, %{{.*}} : tile<256xf32>
// CHECK: fma
// CHECK: store %{{.*}}, %{{.*}}, %mask
TILECC_KERNEL()
void saxpy(const float* x, float* y, float a, int n) {
  auto offs = program_id(0) * 256 + arange<256>();
  auto mask = offs < n;
  store(y + offs, fma(a, load(x + offs, mask), load(y + offs, mask)), mask);
}

// An integer tile with a floating scalar computes in float; double literals are float.
// CHECK-LABEL: kernel @promote
// CHECK: %[[I:.*]] = arange : tile<16xi32>
// CHECK: convert %[[I]] : tile<16xf32>
// CHECK: binary.mul {{.*}} : tile<16xf32>
TILECC_KERNEL(num_warps = 1)
void promote(float* out) {
  store(out + arange<16>(), arange<16>() * 0.5);
}

// Broadcasting of [M,1] and [1,N] makes explicit broadcasts; expand_dims from col/row.
// CHECK-LABEL: kernel @outer
// CHECK: expand_dims {{.*}} [axis=1] : tile<8x1xi32>
// CHECK: expand_dims {{.*}} [axis=0] : tile<1x16xi32>
// CHECK: broadcast {{.*}} : tile<8x16xi32>
// CHECK: broadcast {{.*}} : tile<8x16xi32>
// CHECK: binary.add {{.*}} : tile<8x16xi32>
TILECC_KERNEL(num_warps = 2)
void outer(int* out) {
  auto t = col(arange<8>()) * 16 + row(arange<16>());
  store(out + t, t);
}
