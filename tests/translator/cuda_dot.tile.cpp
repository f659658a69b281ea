// dot on tensor cores: the accumulator layout, shared-memory staging, ldmatrix and mma.sync;
// in a loop, the loads that feed it are copied ahead with cp.async into rings of num_stages
// slots; a loop-invariant operand is staged once; tf32 operands are rounded, not pipelined.
// ARGS: -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- mm -> mm ----
// CHECK: L{{[0-9]+}} = compose<spatial<2, 2>, spatial<8, 4>, repeat<1, 2>>{{$}}
// CHECK: // Shared memory: 29184 bytes (static)
// CHECK-NEXT: x_ring at 0, 15360 bytes ([64][32] f16, 80-byte rows, 3 stages of 5120 bytes): ring filled by cp.async, num_stages - 1 iterations ahead, issued behind the iteration's dot (load at line [[#@LINE+25]])
// CHECK-NEXT: y_ring at 15360, 13824 bytes ([32][64] f16, 144-byte rows, 3 stages of 4608 bytes): ring filled by cp.async
// CHECK: tilecc::cp_async_commit();
// CHECK: tilecc::cp_async_commit();
// With three stages the copies for k + 64 go behind this iteration's mma (PipelineLoops).
// CHECK: for (int k = 0; k < K; k += 32) {
// CHECK-NEXT: tilecc::cp_async_wait<1>();
// CHECK-NEXT: __syncthreads();  // reads after the writes of async_copy (line [[#@LINE+18]]) by other warps
// CHECK-NEXT: unsigned char* const [[R:.*]] = x_ring + pipe_read * 5120;
// CHECK: const unsigned char* const dot_a = [[R]];
// CHECK: tilecc::ldmatrix_x4(frag_a[mi]
// CHECK: tilecc::ldmatrix_x4_trans(frag_pair
// CHECK: tilecc::mma_f16(
// CHECK: const int k_ahead = k + 64;
// CHECK: unsigned char* const [[W:.*]] = x_ring + pipe_write * 5120;
// CHECK: tilecc::cp_async16([[W]] +
// CHECK: tilecc::cp_async_commit();
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

// B is trans(kt): kt as it lies is B's [N][K], copied into the ring untransposed; the queries
// are staged once, before the loop.
// CHECK-LABEL: ---- scores -> scores ----
// CHECK: x_smem at 0, 9216 bytes ([64][64] f16, 144-byte rows): A operand of the dot at line [[#DOT:]]
// CHECK-NEXT: kt_ring at 9216, 9216 bytes ([32][64] f16, 144-byte rows, 2 stages of 4608 bytes): ring filled by cp.async
// With two stages the copies for j + 32 stay in front of the mma: behind it they would have no
// iteration to land in.
// CHECK: for (int j = 0; j < n; j += 32) {
// CHECK: tilecc::cp_async_commit();
// CHECK: // A x_smem [64][64], B kt_ring_slot{{.*}} transposed [32][64]
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
