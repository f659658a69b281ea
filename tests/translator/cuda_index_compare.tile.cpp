// A comparison of a tile with an arange (ir/IndexTiles.h) is printed per element as
// tilecc::index_relative(x, the thread's first index, n) against the element's constant offset,
// so no register holds each element's index; an arange read only that way has no registers. With
// an index on both sides, the one along which a thread holds more registers is the index (here
// axis 0: 16 registers a thread in compose<spatial<4, 1>, spatial<1, 32>>, against 2 along axis
// 1), so the other side has 2 distinct values.
// ARGS: --arch sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: void __launch_bounds__(128) count_below(
// CHECK-NOT: int i[
// CHECK: store_lt[reg] = tilecc::index_relative(n, L0_t0, 512) > reg * 128;
TILECC_KERNEL(num_warps = 4)
void count_below(float* out, int n) {
  auto i = arange<512>();
  store(out + program_id(0), sum(where(i < n, 1.0f, 0.0f)));
}

// CHECK-LABEL: void __launch_bounds__(128) band(
// CHECK: store_ge[reg] = tilecc::index_relative(r[(reg % 2)], L1_t0, 64) <= (reg / 2) * 4;
TILECC_KERNEL(num_warps = 4)
void band(float* out) {
  auto r = arange<64>();
  auto c = arange<64>();
  store(out + col(r) * 64 + row(c), where(col(r) >= row(c), 1.0f, 0.0f));
}
