// Pointer tiles a K loop carries and advances (`a_ptrs += BK`, as Triton's tutorials write them),
// in the general variant (one address per element: 32 for A, 64 for B per thread) become a
// carried 64-bit offset each, the addresses rebuilt each iteration from the outer sum's terms,
// the narrowest term joined with the offset first (rematerialize-pointers). The aligned variant's
// accesses are 16 bytes wide (4 and 8 addresses per thread, the other elements' pointers unused):
// its pointers stay carried. A pointer
// tile whose initial value is not an outer sum (gathered rows) stays carried too.
// ARGS: --arch sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm(const half* a, const half* b, half* c, int M, int N, int K, int lda, int ldb, int ldc) {
  auto rm = (program_id(0) * 128 + arange<128>()) % M;
  auto rn = (program_id(1) * 256 + arange<256>()) % N;
  auto rk = arange<64>();
  auto a_ptrs = a + (col(rm) * lda + row(rk));  // one add of two broadcast terms
  auto b_ptrs = b + col(rk) * ldb + row(rn);    // a pointer tile of lower rank, broadcast
  auto acc = zeros<float, 128, 256>();
  for (int k = 0; k < K; k += 64) {
    acc = dot(load(a_ptrs, row(rk) < K - k, 0.0f), load(b_ptrs, col(rk) < K - k, 0.0f), acc);
    a_ptrs += 64;
    b_ptrs += 64 * ldb;
  }
  store(c + col(rm) * ldc + row(rn), cast<half>(acc));
}

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gathered(const half* a, const int* rows, const half* b, half* c, int N, int K, int lda, int ldb, int ldc) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = arange<256>();
  auto rk = arange<64>();
  auto a_ptrs = a + load(rows + col(rm) * 64 + row(rk));  // not an outer sum
  auto b_ptrs = b + col(rk) * ldb + row(rn);
  auto acc = zeros<float, 128, 256>();
  for (int k = 0; k < K; k += 64) {
    acc = dot(load(a_ptrs), load(b_ptrs), acc);
    a_ptrs += 64;
    b_ptrs += 64 * ldb;
  }
  store(c + col(rm) * ldc + row(rn), cast<half>(acc));
}

// CHECK-LABEL: ---- gemm -> gemm ----
// CHECK-NOT: ptr<const f16>> in {{L[0-9]+}}, carried
// CHECK: int64_t a_ptrs_offset = int64_t(0ll);
// CHECK-NEXT: int64_t b_ptrs_offset = int64_t(0ll);
// CHECK-NEXT: for (int k = 0; k < K; k += 64) {
// B: b + its rows' terms (8 per thread), then the offset, then the columns.
// CHECK: b_ptrs_ptr[reg] = b + b_ptrs_mul[(reg / 8)];
// CHECK: [[B1:b_ptrs_ptr_1]][reg] = b_ptrs_ptr[reg] + b_ptrs_offset;
// CHECK: b_ptrs[reg] = [[B1]][reg] + rn_1[(reg % 8)];
// A: a + the columns' terms (2 per thread), then the offset, then the rows (16).
// CHECK: a_ptrs_ptr[reg] = a + rk_1[(reg % 2)];
// CHECK: [[A1:a_ptrs_ptr_1]][reg] = a_ptrs_ptr[reg] + a_ptrs_offset;
// CHECK: a_ptrs[reg] = [[A1]][reg] + a_ptrs_mul[(reg / 2)];
// CHECK: ? *a_ptrs[reg] :
// CHECK: ? *b_ptrs[reg] :
// CHECK: const int64_t [[AN:[a-z_0-9]+]] = a_ptrs_offset + int64_t(64ll);
// CHECK: const int64_t [[BS:[a-z_0-9]+]] = static_cast<int64_t>(b_ptrs_mul_1);
// CHECK-NEXT: const int64_t [[BN:[a-z_0-9]+]] = b_ptrs_offset + [[BS]];
// CHECK: a_ptrs_offset = [[AN]];
// CHECK-NEXT: b_ptrs_offset = [[BN]];
// CHECK-LABEL: ---- gemm -> gemm_aligned ----
// CHECK-NOT: _offset
// CHECK: const __half* a_ptrs_1[32];  // tile<128x64xptr<const f16>> in {{L[0-9]+}}, carried
// CHECK-LABEL: ---- gathered -> gathered ----
// CHECK: const __half* a_ptrs_1[32];  // tile<128x64xptr<const f16>> in {{L[0-9]+}}, carried
// CHECK-NOT: a_ptrs_offset
// CHECK: int64_t b_ptrs_offset = int64_t(0ll);
// CHECK-LABEL: ---- gathered -> gathered_aligned ----
