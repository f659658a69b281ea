// Dot operands loaded under an `if` in a K loop (block-sparse) move out of it with the `if`'s
// condition joined to their mask, and are copied ahead; the condition's scalar load is read for
// the later iteration only where that iteration is in range, and carried to that iteration (not
// read again); where it is false the copies are not issued. An address from an index loaded in the loop is read ahead the same way.
// ARGS: --arch sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4, num_stages = 3)
void sparse(const half* a, const half* b, const int* block_mask, float* c, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 64, 64>();
  for (int kb = 0; kb < K / 32; ++kb)
    if (load(block_mask + kb) != 0) acc = dot(load(a + col(rm) * K + row(kb * 32 + rk)), load(b + col(kb * 32 + rk) * N + row(rn)), acc);
  store(c + col(rm) * N + row(rn), acc);
}

TILECC_KERNEL(num_warps = 4, num_stages = 3)
void listed(const half* a, const half* b, const int* blocks, int n, float* c, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 64, 64>();
  for (int j = 0; j < n; ++j) {
    const int k = load(blocks + j) * 32;
    acc = dot(load(a + col(rm) * K + row(k + rk)), load(b + col(k + rk) * N + row(rn)), acc);
  }
  store(c + col(rm) * N + row(rn), acc);
}

// CHECK-LABEL: ---- sparse -> sparse_aligned ----
// Prologue: the mask of iteration 0, read only if the loop runs at all; copies predicated on it.
// CHECK: const int {{[a-z_0-9]+}} = [[IN:[a-z_0-9]+]] ? *{{[a-z_0-9]+}} : 0;
// CHECK: tilecc::cp_async16({{.*}}, [[IN]] && {{[a-z_0-9]+}});
// CHECK: int [[NOW:cond_carried]] = {{[a-z_0-9]+}};
// CHECK-NEXT: int [[NEXT:cond_carried_1]] = {{[a-z_0-9]+}};
// CHECK: for (int kb = 0; kb < [[KB:[a-z_0-9]+]]; ++kb) {
// CHECK-NEXT: tilecc::cp_async_wait<1>();
// CHECK-NEXT: const int kb_ahead = kb + 2;
// CHECK-NEXT: const bool [[AHEAD:[a-z_0-9]+]] = kb_ahead < [[KB]];
// CHECK: const int [[READ:[a-z_0-9]+]] = [[AHEAD]] ? *{{[a-z_0-9]+}} : 0;
// One barrier an iteration, before the copies' `if`: it also orders the dot's reads under the
// other `if`. The copies are not issued at all for a block that is skipped.
// CHECK: __syncthreads();  // writes of copies under a condition after the reads of mma
// CHECK: const bool [[CA:[a-z_0-9]+]] = [[READ]] != 0;
// CHECK: if ([[CA]]) {
// CHECK: tilecc::cp_async16({{.*}}, [[AHEAD]] && [[CA]]);
// CHECK: tilecc::cp_async_commit();
// The condition of this iteration, as read two iterations before, and the dot under it
// reading the ring.
// CHECK: const bool [[C:[a-z_0-9]+]] = [[NOW]] != 0;
// CHECK: if ([[C]]) {
// CHECK-NOT: __syncthreads
// CHECK: const unsigned char* const dot_a = {{[a-z_]+}}_ring_slot
// CHECK: const int [[N1:[a-z_0-9]+]] = [[NEXT]];
// CHECK-NEXT: const int [[N2:[a-z_0-9]+]] = [[READ]];
// CHECK: [[NOW]] = [[N1]];
// CHECK-NEXT: [[NEXT]] = [[N2]];
// CHECK-LABEL: ---- listed -> listed_aligned ----
// CHECK: for (int j = 0; j < n; ++j) {
// CHECK: const int j_ahead = j + 2;
// CHECK-NEXT: const bool [[JA:[a-z_0-9]+]] = j_ahead < n;
// CHECK: const int {{[a-z_0-9]+}} = [[JA]] ? *{{[a-z_0-9]+}} : 0;
// CHECK: tilecc::cp_async16({{.*}}, [[JA]]);
