// Argument specialisation on unit strides: an integer that multiplies the offsets along a tile's
// last axis is assumed to equal 1 in the specialised variant (the inner stride of row-major
// data), which makes the access contiguous: 16-byte accesses where the general kernel moves one
// element. The stride of the other axis keeps the divisibility assumption. `* 1` of a tile keeps
// its contiguity.
// ARGS: --emit=report -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void strided_copy(const float* x, float* y, int rows, int sxr, int sxc, int syr, int syc) {
  auto i = program_id(0) * 16 + arange<16>();
  auto j = arange<64>();
  auto m = col(i) < rows;
  store(y + col(i) * syr + row(j) * syc, load(x + col(i) * sxr + row(j) * sxc, m), m);
}
// CHECK-LABEL: kernel strided_copy (strided_copy)
// CHECK: load at line 15: 1 x f32 = 4 bytes per access (pointers are contiguous in runs of 1 along axis 1;
// CHECK-LABEL: kernel strided_copy_aligned (strided_copy)
// CHECK-NEXT: variant: when x is aligned to 16, y is aligned to 16, sxr is a multiple of 4, sxc == 1, syr is a multiple of 4, syc == 1
// CHECK: load at line 15: 4 x f32 = 16 bytes per access
// CHECK-NEXT: store at line 15: 4 x f32 = 16 bytes per access

TILECC_KERNEL(num_warps = 4)
void times_one(const float* x, float* y) {
  auto offs = arange<256>() * 1;
  store(y + offs, load(x + offs));
}
// CHECK-LABEL: kernel times_one_aligned (times_one)
// CHECK-NEXT: variant: when x is aligned to 16, y is aligned to 16
// CHECK: load at line 27: 4 x f32 = 16 bytes per access
