// The shared-memory plan: buffers whose lifetimes do not overlap get bytes of their own while
// they all fit in what cannot cost occupancy (a program's share of sm_80's 164 KB at the
// programs per SM its threads allow), so that no barrier orders one's reads before the next
// one's writes; beyond that they share bytes, and the barrier between them comes back.
// ARGS: --arch sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// Two reductions in a row: their partial results in disjoint bytes, and the two barriers are
// each reduction's own (no third between the max's reads and the sum's writes).
// CHECK-LABEL: ---- softmax_row -> softmax_row ----
// CHECK: // Shared memory: 64 bytes (static); each buffer has bytes of its own:
// CHECK-NEXT: //   [[MAX:[a-z_0-9]+]] at 0, 32 bytes ([32] u8, 32-byte rows): partial results of the max across warps at line {{[0-9]+}}
// CHECK-NEXT: //   [[SUM:[a-z_0-9]+]] at 32, 32 bytes ([32] u8, 32-byte rows): partial results of the sum across warps at line {{[0-9]+}}
// CHECK: __syncthreads();  // every warp's partial results are written
// CHECK-NOT: __syncthreads
// CHECK: unsigned char* const [[SUM]] = smem + 32;
// CHECK-NOT: __syncthreads
// CHECK: __syncthreads();  // every warp's partial results are written
// CHECK-NOT: __syncthreads
// CHECK: ---- softmax_row -> softmax_row_aligned ----
TILECC_KERNEL(num_warps = 8)
void softmax_row(const float* x, float* y, int n) {
  auto cols = arange<1024>();
  auto v = load(x + program_id(0) * n + cols, cols < n, -INFINITY);
  auto e = exp(v - max(v));
  store(y + program_id(0) * n + cols, e / sum(e), cols < n);
}

// Two dots one after the other, 4 warps (16 programs per SM, 9 KB each): apart, their operands
// would take 36 KB, so the second dot's reuse the first's bytes after a barrier.
// CHECK-LABEL: ---- two_dots -> two_dots ----
// CHECK: // Shared memory: 18432 bytes (static); buffers whose lifetimes do not overlap share bytes (mbarriers never do):
// CHECK-NEXT: //   {{.*}} at 0, 9216 bytes
// CHECK-NEXT: //   {{.*}} at 0, 9216 bytes
// CHECK-NEXT: //   {{.*}} at 9216, 9216 bytes
// CHECK-NEXT: //   {{.*}} at 9216, 9216 bytes
// CHECK: __syncthreads();  // writes after the reads of mma (line {{[0-9]+}}) by other warps
TILECC_KERNEL(num_warps = 4)
void two_dots(const half* a, const half* b, const half* c, const half* d, float* y) {
  auto r = arange<64>();
  auto k = arange<64>();
  auto p = dot(load(a + col(r) * 64 + row(k)), load(b + col(k) * 64 + row(r)));
  auto q = dot(load(c + col(r) * 64 + row(k)), load(d + col(k) * 64 + row(r)));
  store(y + col(r) * 64 + row(r), p + q);
}
