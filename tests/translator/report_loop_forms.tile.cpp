// K loops in the spellings users write. `<=` and `!=` with a constant step are taken as `<`
// (they differ only where the loop would overflow or never end), and a loop counting down runs
// its negation up, so their operands are copied ahead like the canonical loop's. Loads under an
// `if` (block-sparse) move out of it, masked by its condition, and are copied ahead too, the
// condition read for the later iteration. Where the loop writes memory the condition's load
// cannot be read ahead, and a loop counting down over an unsigned counter cannot be negated:
// those are not pipelined, and the report says why.
// ARGS: --emit=report --arch sm_80
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int MODE>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void k_loop(const half* a, const half* b, float* c, int* flags, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 64, 64>();
  if constexpr (MODE == 0) {
    for (int k = 0; k <= K - 32; k += 32)
      acc = dot(load(a + col(rm) * K + row(k + rk)), load(b + col(k + rk) * N + row(rn)), acc);
  } else if constexpr (MODE == 1) {
    for (int k = 0; k != K; k += 32)
      acc = dot(load(a + col(rm) * K + row(k + rk)), load(b + col(k + rk) * N + row(rn)), acc);
  } else if constexpr (MODE == 2) {
    for (int k = K - 32; k >= 0; k -= 32)
      acc = dot(load(a + col(rm) * K + row(k + rk)), load(b + col(k + rk) * N + row(rn)), acc);
  } else if constexpr (MODE == 5) {
    for (int k = 0; k < K; k += 32) {
      if (load(flags + k / 32) != 0) acc = dot(load(a + col(rm) * K + row(k + rk)), load(b + col(k + rk) * N + row(rn)), acc);
      store(flags + k / 32, 0);
    }
  } else if constexpr (MODE == 4) {
    for (unsigned k = K; k > 0; k -= 32)
      acc = dot(load(a + col(rm) * K + row(k - 32 + rk)), load(b + col(k - 32 + rk) * N + row(rn)), acc);
  } else {
    for (int k = 0; k < K; k += 32)
      if (load(flags + k / 32) != 0) acc = dot(load(a + col(rm) * K + row(k + rk)), load(b + col(k + rk) * N + row(rn)), acc);
  }
  store(c + col(rm) * N + row(rn), acc);
}
template void k_loop<0>(const half*, const half*, float*, int*, int, int);
template void k_loop<1>(const half*, const half*, float*, int*, int, int);
template void k_loop<2>(const half*, const half*, float*, int*, int, int);
template void k_loop<3>(const half*, const half*, float*, int*, int, int);
template void k_loop<4>(const half*, const half*, float*, int*, int, int);
template void k_loop<5>(const half*, const half*, float*, int*, int, int);

// CHECK-LABEL: kernel k_loop_0_aligned (k_loop<0>)
// CHECK: load at line 21: 8 x f16 = 16 bytes per access, copied to shared memory ahead by cp.async
// CHECK: ring filled by cp.async
// CHECK-LABEL: kernel k_loop_1_aligned (k_loop<1>)
// CHECK: load at line 24: 8 x f16 = 16 bytes per access, copied to shared memory ahead by cp.async
// CHECK-LABEL: kernel k_loop_2_aligned (k_loop<2>)
// CHECK: load at line 27: 8 x f16 = 16 bytes per access, copied to shared memory ahead by cp.async
// CHECK: ring filled by cp.async
// CHECK-LABEL: kernel k_loop_3_aligned (k_loop<3>)
// CHECK: load at line 38: 8 x f16 = 16 bytes per access, copied to shared memory ahead by cp.async
// CHECK: ring filled by cp.async
// The accumulator the `if` yields stays in the dot's layout: no conversion through shared memory
// into and out of the `if` every iteration.
// CHECK-NOT: layout conversion at line
// An unsigned counter counting down is not negated (its negation wraps).
// CHECK-LABEL: kernel k_loop_4_aligned (k_loop<4>)
// CHECK: load at line 35: 8 x f16 = 16 bytes per access, not copied ahead: its loop (line 34) does not count up with '<'
// CHECK-NOT: ring filled
// The loop writes the flags: the condition's load cannot be read ahead.
// CHECK-LABEL: kernel k_loop_5_aligned (k_loop<5>)
// CHECK: load at line 30: 8 x f16 = 16 bytes per access, not copied ahead: it is under an 'if' in its loop (line 29) whose condition
// CHECK-NOT: ring filled
