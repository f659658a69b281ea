// Split-K: a program_id(2) slice of K whose start (`pid_k * blocks * BK`, a product of a program
// id and a parameter) lies along the contiguous axis of A and the row axis of B. Both loads stay
// TMA boxes on sm_90a (the start is no outer axis of the tensor: the mask bounds that axis by K).
// The epilogue's atomics add the accumulator where wgmma leaves it, two consecutive f32 per
// thread, with sm_90's vector reductions (no layout conversion through shared memory); sm_80
// adds one element at a time, as does an atomic whose old values are used (c 8-byte aligned).
// ARGS: --emit=report -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void split_k(const half* a, const half* b, float* c, int M, int N, int K, int blocks) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  const int k_begin = program_id(2) * blocks * 64;
  auto acc = zeros<float, 128, 128>();
  for (int k = k_begin; k < min(K, k_begin + blocks * 64); k += 64) {
    auto rk = k + arange<64>();
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(rk), (col(rm) < M) & row(rk < K), 0.0f);
    auto y = load(b + cast<int64_t>(col(rk)) * N + row(rn), col(rk < K) & row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  atomic_add(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}
// CHECK-LABEL: kernel split_k_aligned (split_k), 8 warps, for sm_80
// CHECK: atomic_add at line 23: 1 x f32 = 4 bytes per access (the address is only known to be a multiple of 8 bytes; atomics are issued one element at a time on this target)
// CHECK: layout conversion at line
// CHECK-LABEL: kernel split_k_sm90a_tma (split_k), 8 warps, for sm_90a
// CHECK-NEXT: variant: when a is aligned to 16, b is aligned to 16, c is aligned to 8, N is a multiple of 8, K is a multiple of 8
// CHECK: atomic_add at line 23: 2 x f32 = 8 bytes per access (the address is only known to be a multiple of 8 bytes)
// CHECK: box copied by TMA at line 19
// CHECK: box copied by TMA at line 20
// CHECK-NOT: layout conversion

TILECC_KERNEL(num_warps = 4)
void counts(const float* x, float* total, float* before) {
  auto i = program_id(0) * 256 + arange<256>();
  store(before + i, atomic_add(total + i, load(x + i)));
}
// Old values used: one element at a time on every target, so the sm_80 variant serves sm_90a too.
// CHECK-LABEL: kernel counts (counts)
// CHECK-LABEL: kernel counts_aligned (counts), 4 warps, for sm_80
// CHECK: atomic_add at line 38: 1 x f32 = 4 bytes per access ({{.*}}the old values are used: atomics return them one element at a time)
// CHECK-NOT: kernel counts_sm90a
