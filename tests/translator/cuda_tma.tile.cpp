// TMA on sm_90a: in a variant whose arguments the launcher checks (`_tma`, before the aligned
// one), loads of a pipelined dot loop whose pointers and mask form a box become TMA copies
// completing on a ring of mbarriers, with the descriptors encoded by the launcher (the aligned
// cp.async variant runs where one cannot be encoded), and the wgmma batch of one iteration stays in flight during the next
// (wait 1 in the loop, wait 0 after it). Rows of A taken modulo M (Triton's tutorial) are a box
// too, because the rows past M are only stored under a mask that drops them; where such a row
// reaches memory unmasked, the load stays on cp.async.
// ARGS: --arch sm_80,sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// The general kernel (both operands loaded one element at a time) stays on mma.sync: the sm_80
// one serves sm_90a too.
// CHECK-LABEL: ---- gemm -> gemm ----
// CHECK-NOT: tma_load
// CHECK-NOT: ---- gemm -> gemm_sm90a ----
// CHECK-LABEL: ---- gemm -> gemm_sm90a_tma ----
// The rows start at a program's first row: not provably >= 0 (pid_m is a quotient), so the
// launcher bounds the start over the grid before it picks this variant (below); no trap.
// CHECK: // Specialised variant: the launcher picks it when {{.*}}, ldc is a multiple of 8 and in every program of the grid 128 * (program_id(0) / ((N + 128 - 1) / 128)) >= 0.
// CHECK: const __grid_constant__ CUtensorMap a_tile_desc, const __grid_constant__ CUtensorMap b_tile_desc)
// CHECK-NOT: __trap();  // a TMA box
// CHECK: tilecc::mbarrier_init(k_full + 8 * i, 1);
// Prologue: iteration 0 into slot 0; coordinates innermost first (column k, then row).
// CHECK: if (threadIdx.x == 0) tilecc::mbarrier_arrive_expect_tx(k_full, 32768);
// CHECK: if (threadIdx.x == 0) tilecc::tma_load_2d(a_tile_ring_slot, &a_tile_desc, k_full, 0, {{[a-z_0-9]+}});
// B [64][128]: two 64-column panels of 8192 bytes.
// CHECK: if (threadIdx.x == 0) tilecc::tma_load_2d(b_tile_ring_slot, &b_tile_desc, k_full, {{[a-z_0-9]+}}, 0);
// CHECK: if (threadIdx.x == 0) tilecc::tma_load_2d(b_tile_ring_slot + 8192, &b_tile_desc, k_full,
// CHECK: for (int k = 0; k < K; k += 64) {
// CHECK-NEXT: tilecc::mbarrier_wait(k_full + 8 * (pipe_read), pipe_phase);
// CHECK: tilecc::wgmma_commit();
// CHECK: tilecc::wgmma_wait<1>();
// The copies after the wait, into the slot the previous iteration read, after a CTA barrier.
// CHECK: __syncthreads();  // writes after the reads of wgmma
// CHECK: tilecc::tma_load_2d(a_tile_ring_slot_{{[0-9]+}}, &a_tile_desc, k_full + 8 * (pipe_write),
// CHECK: pipe_phase = pipe_sel
// CHECK: tilecc::wgmma_wait<0>();
// CHECK: tilecc::wgmma_settle(acc[reg]);
// CHECK-LABEL: ---- gemm_unmasked_rows -> gemm_unmasked_rows_sm90a_aligned ----
// CHECK-NOT: tma_load
// CHECK: tilecc::cp_async16(
// A mask with a part that is not a bound on one axis: A is not a box (here not pipelined at
// all); B still comes by TMA, but A's buffer is rewritten each iteration, so the wgmma batch
// is waited for in the loop.
// CHECK-LABEL: ---- gemm_holes -> gemm_holes_sm90a_tma ----
// CHECK-NOT: tma_load_2d(a_tile
// CHECK: tilecc::tma_load_2d(b_tile_ring_slot,
// CHECK-NOT: wgmma_wait<1>
// CHECK: tilecc::wgmma_wait<0>();
// Wrapped rows summed along the rows: every column sum observes them.
// CHECK-LABEL: ---- gemm_column_sums -> gemm_column_sums_sm90a_aligned ----
// CHECK-NOT: tilecc::tma_load_2d(a_tile
// A batch offset with its own stride parameter: a third, outer axis of the descriptor, one
// element wide; the unmasked contiguous axis (constant start 0) gets the tile's extent.
// CHECK-LABEL: ---- batched_gemm -> batched_gemm_sm90a_tma ----
// CHECK: tilecc::tma_load_3d(a_tile_ring_slot, &a_tile_desc, t_full, 0, {{[a-z_0-9]+}}, batch_pid);
// CHECK-LABEL: ---- block_gemm -> block_gemm_sm90a_tma ----
// Block pointers: the mask says 0 <= coordinate, so no check; offsets advance by 64 columns / rows.
// CHECK-NOT: __trap();  // a TMA
// CHECK: tilecc::tma_load_2d(
// The launcher: descriptors from the arguments (innermost first, strides in bytes), cached.
// CHECK-LABEL: cudaError_t launch_gemm(
// The TMA variant's bound over the grid: program ids from 0 to grid.x - 1, the arguments as given.
// CHECK: ldc % 8 == 0 && (tilecc::Range(128) * (tilecc::program_ids(grid.x) / (((tilecc::Range(N) + tilecc::Range(128)) - tilecc::Range(1)) / tilecc::Range(128)))).nonnegative()) {
// CHECK: static thread_local tilecc::TensorMapCache tilecc_map_0_0;
// CHECK-NEXT: const uint64_t tilecc_dims_0_0[] = {static_cast<uint64_t>(static_cast<int64_t>(K)), static_cast<uint64_t>(static_cast<int64_t>(M))};
// CHECK-NEXT: const uint64_t tilecc_strides_0_0[] = {static_cast<uint64_t>(static_cast<int64_t>(lda)) * 2};
// CHECK-NEXT: const uint32_t tilecc_box_0_0[] = {64u, 128u};
// CHECK-NEXT: const CUtensorMap* const tilecc_desc_0_0 = tilecc::tensor_map(tilecc_map_0_0, a, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
// CHECK: const uint64_t tilecc_dims_0_1[] = {static_cast<uint64_t>(static_cast<int64_t>(N)), static_cast<uint64_t>(static_cast<int64_t>(K))};
// CHECK: if (tilecc_desc_0_0 && tilecc_desc_0_1) {
// CHECK: <<<grid, 256, 98336, stream>>>(a, b, c, M, N, K, lda, ldb, ldc, *tilecc_desc_0_0, *tilecc_desc_0_1);
// Otherwise the same kernel without TMA (cp.async), then the general one, which both paths share.
// CHECK: ::tilecc_kernels::gemm_sm90a_aligned<<<
// CHECK: ::tilecc_kernels::gemm_aligned<<<
// CHECK-NEXT: return cudaGetLastError();
// CHECK-NEXT: }
// CHECK-NEXT: tilecc::log_launch("launch_gemm", "gemm");  // TILECC_LOG_LAUNCH=1 traces the choice
// CHECK-NEXT: ::tilecc_kernels::gemm<<<
// CHECK-LABEL: cudaError_t launch_batched_gemm(
// CHECK: const uint64_t tilecc_dims_0_0[] = {static_cast<uint64_t>(64), static_cast<uint64_t>(static_cast<int64_t>(M)), static_cast<uint64_t>(2147483647)};
// CHECK-NEXT: const uint64_t tilecc_strides_0_0[] = {static_cast<uint64_t>(static_cast<int64_t>(lda)) * 2, static_cast<uint64_t>(static_cast<int64_t>(batch_stride)) * 2};
// CHECK-NEXT: const uint32_t tilecc_box_0_0[] = {64u, 128u, 1u};

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm(const half* a, const half* b, half* c, int M, int N, int K, int64_t lda, int64_t ldb, int64_t ldc) {
  const int pid = program_id(0);
  const int grid_n = cdiv(N, 128);
  const int pid_m = pid / grid_n, pid_n = pid % grid_n;
  auto rm = (pid_m * 128 + arange<128>()) % M;
  auto rn = pid_n * 128 + arange<128>();
  auto rk = arange<64>();
  auto a_ptrs = a + cast<int64_t>(col(rm)) * lda + row(rk);
  auto b_ptrs = b + cast<int64_t>(col(rk)) * ldb + row(rn);
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a_ptrs, row(rk) < K - k, 0.0f);
    auto b_tile = load(b_ptrs, (col(rk) < K - k) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
    a_ptrs += 64;
    b_ptrs += 64 * ldb;
  }
  auto cm = pid_m * 128 + arange<128>();
  store(c + cast<int64_t>(col(cm)) * ldc + row(rn), cast<half>(acc), (col(cm) < M) & (row(rn) < N));
}

// The same, but every row of C is stored: the wrapped rows of A are observed.
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_unmasked_rows(const half* a, const half* b, half* c, int M, int N, int K, int64_t lda, int64_t ldb, int64_t ldc) {
  const int pid = program_id(0);
  const int grid_n = cdiv(N, 128);
  const int pid_m = pid / grid_n, pid_n = pid % grid_n;
  auto rm = (pid_m * 128 + arange<128>()) % M;
  auto rn = pid_n * 128 + arange<128>();
  auto rk = arange<64>();
  auto a_ptrs = a + cast<int64_t>(col(rm)) * lda + row(rk);
  auto b_ptrs = b + cast<int64_t>(col(rk)) * ldb + row(rn);
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a_ptrs, row(rk) < K - k, 0.0f);
    auto b_tile = load(b_ptrs, (col(rk) < K - k) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
    a_ptrs += 64;
    b_ptrs += 64 * ldb;
  }
  auto cm = pid_m * 128 + arange<128>();
  store(c + cast<int64_t>(col(cm)) * ldc + row(rn), cast<half>(acc), row(rn) < N);
}

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_holes(const half* a, const half* b, float* c, int M, int N, int K, int64_t lda, int64_t ldb) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + cast<int64_t>(col(rm)) * lda + row(k + rk), (col(rm) < M) & (row(k + rk) < K) & (row(rk) != 3), 0.0f);
    auto b_tile = load(b + cast<int64_t>(col(k + rk)) * ldb + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(c + col(rm) * 128 + row(rn), acc, col(rm) < M);
}

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_column_sums(const half* a, const half* b, float* c, int M, int N, int K, int64_t lda, int64_t ldb) {
  auto rm = (program_id(0) * 128 + arange<128>()) % M;
  auto rn = arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + cast<int64_t>(col(rm)) * lda + row(k + rk), row(k + rk) < K, 0.0f);
    auto b_tile = load(b + cast<int64_t>(col(k + rk)) * ldb + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(c + program_id(0) * 128 + rn, sum<0>(acc), rn < N);
}

// A batch of GEMMs with K = 64 per matrix: A's columns need no mask.
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void batched_gemm(const half* a, const half* b, float* c, int M, int N, int n_tiles, int64_t lda, int64_t batch_stride) {
  const int64_t batch = program_id(1);
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int t = 0; t < n_tiles; ++t) {
    auto a_tile = load(a + batch * batch_stride + cast<int64_t>(col(rm)) * lda + row(rk), col(rm) < M, 0.0f);
    auto b_tile = load(b + cast<int64_t>(col(t * 64 + rk)) * N + row(rn), (col(t * 64 + rk) < 64 * n_tiles) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(c + col(rm) * 128 + row(rn), acc, col(rm) < M);
}

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void block_gemm(const bfloat16* a, const bfloat16* b, float* c, int M, int N, int K, int64_t lda, int64_t ldb, int64_t ldc) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto pa = make_block_ptr<128, 64>(a, {M, K}, {lda, 1}, {pid_m * 128, 0});
  auto pb = make_block_ptr<64, 128>(b, {K, N}, {ldb, 1}, {0, pid_n * 128});
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    acc = dot(load(pa), load(pb), acc);
    pa = advance(pa, {0, 64});
    pb = advance(pb, {64, 0});
  }
  store(make_block_ptr<128, 128>(c, {M, N}, {ldc, 1}, {pid_m * 128, pid_n * 128}), acc);
}
