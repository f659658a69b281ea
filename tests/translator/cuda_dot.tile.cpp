// dot on tensor cores: the accumulator layout, shared-memory staging, ldmatrix and mma.sync;
// in a loop, the loads that feed it are copied ahead with cp.async into rings of num_stages
// slots; a loop-invariant operand is staged once; tf32 operands are rounded, not pipelined.
// ARGS: -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- mm -> mm ----
// CHECK: L{{[0-9]+}} = blocked{spt=[1,2] tpw=[8,4] wpc=[2,2] order=[1,0]}
// CHECK: Shared memory:
// CHECK-NEXT: pipeline of 3 stages for the loop at line 28: x [64][32] (80-byte rows) y [32][64] (144-byte rows): 29184 bytes
// CHECK: tilecc::cp_async_commit();
// CHECK: for (int k = 0; k < K; k += 32) {
// CHECK-NEXT: tilecc::cp_async_wait<1>();
// CHECK-NEXT: __syncthreads();
// CHECK: tilecc::cp_async16(smem + 0 + pipe_write * 5120
// CHECK: A and B already in the pipeline's shared memory
// CHECK: tilecc::ldmatrix_x4(fa[mi]
// CHECK: tilecc::ldmatrix_x4_trans(pair
// CHECK: tilecc::mma_f16(
// CHECK: tilecc::cp_async_wait<0>();
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void mm(TILECC_ALIGNED(16) const half* a, TILECC_ALIGNED(16) const half* b, float* c, TILECC_MULTIPLE_OF(16) int K) {
  auto rm = arange<64>();
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto x = load(a + col(rm) * K + row(k + rk), row(k + rk) < K, 0.0f);
    auto y = load(b + col(k + rk) * 64 + row(rn), col(k + rk) < K, 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * 64 + row(rn), acc);
}

// CHECK-LABEL: ---- scores -> scores ----
// CHECK: kt [32][64] (144-byte rows) x (staged once) [64][64]
// CHECK: B transposed [32][64]
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void scores(TILECC_ALIGNED(16) const half* q, TILECC_ALIGNED(16) const half* k, float* out, int n) {
  auto r = arange<64>();
  auto rj = arange<32>();
  auto x = load(q + col(r) * 64 + row(r));
  auto best = full<float, 64>(-INFINITY);
  for (int j = 0; j < n; j += 32) {
    auto kt = load(k + col(j + rj) * 64 + row(r), col(j + rj) < n, 0.0f);
    best = maximum(best, max<1>(dot(x, trans(kt))));
  }
  store(out + r, best);
}

// CHECK-LABEL: ---- mm_tf32 -> mm_tf32 ----
// CHECK-NOT: cp_async
// CHECK: tilecc::to_tf32(
// CHECK: tilecc::mma_tf32(
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void mm_tf32(TILECC_ALIGNED(16) const float* a, TILECC_ALIGNED(16) const float* b, float* c, TILECC_MULTIPLE_OF(16) int K) {
  auto r = arange<32>();
  auto acc = zeros<float, 32, 32>();
  for (int k = 0; k < K; k += 32) acc = dot<precision::tf32>(load(a + col(r) * K + row(k + r)), load(b + col(k + r) * 32 + row(r)), acc);
  store(c + col(r) * 32 + row(r), acc);
}
