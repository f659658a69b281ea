// A row reduction accumulated over a loop (argmin of each 128-column block, summed): the
// reduction runs in its operand's layout (16-byte loads, four elements per thread), and the
// accumulator stays in the reduction's result layout through the loop, converted once for the
// store after it. Before, the whole [16][128] tile went through shared memory every iteration,
// and the result once more.
// ARGS: --emit=report --arch sm_80
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void argmin_loop(const float* x, int* idx, int M, int N) {
  auto rm = program_id(0) * 16 + arange<16>();
  auto bidx = zeros<int, 16>();
  for (int k = 0; k < N; k += 128) {
    auto cn = k + arange<128>();
    auto v = load(x + col(rm) * N + row(cn), col(rm < M) & row(cn < N), INFINITY);
    bidx += argmin<1>(v);
  }
  store(idx + rm, bidx, rm < M);
}

// CHECK-LABEL: kernel argmin_loop_aligned (argmin_loop)
// CHECK: load at line 16: 4 x f32 = 16 bytes per access
// CHECK-NOT: layout conversion at line 1{{[67]}}
// CHECK: layout conversion for the store at line 19
// CHECK-NOT: layout conversion at line 1{{[67]}}
// CHECK: barriers:
