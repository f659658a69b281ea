// Warp specialisation on sm_90a (the `_tma` variant): a producer warp group (its first warp)
// issues the TMA copies of the loop, waiting on "empty" mbarriers; the kernel's warps consume,
// releasing each slot once no wgmma reads it; setmaxnreg moves registers to the consumers
// (two consumer warp groups and more); and where the loop keeps a wgmma batch in flight, the
// grid is persistent (one program per SM, the rings carried from tile to tile; the launcher
// passes the grid), with the epilogue's store through TMA. By default only where shared memory keeps the program alone on its SM
// anyway (the 128x256 GEMM); `warp_specialize` decides otherwise. A kernel that asks for it
// where nothing can be specialised gets a located warning.
// ARGS: --arch sm_80,sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- gemm<128, 256> -> gemm_128_256_sm90a_tma ----
// CHECK: // 8 warps and a producer warp group of 4 (384 threads) per program, for sm_90a.
// CHECK: // the boxes up to num_stages iterations ahead, each slot released by every consumer warp
// CHECK: k_empty at {{[0-9]+}}, 24 bytes (3 mbarriers): one per ring slot: every consumer warp is done reading it
// CHECK: __global__ void __launch_bounds__(384, 1) gemm_128_256_sm90a_tma({{.*}}, const dim3 tilecc_grid) {
// CHECK: tilecc::mbarrier_init(k_empty + 8 * i, 8);
// CHECK: __syncthreads();  // the mbarriers are initialised before either role waits on them
// CHECK-NEXT: if (warp < 8) {  // warps 0..7
// CHECK-NEXT: tilecc::setmaxnreg_inc<232>();
// CHECK: const int tile_nprog_1 = tilecc_grid.x;
// CHECK: for (int tile = tile_pid; tile < tiles; tile += tile_nprog) {
// CHECK: for (int k = 0; k < K; k += 64) {
// CHECK-NEXT: tilecc::mbarrier_wait(k_full + 8 * (pipe_read), pipe_phase);
// CHECK-NOT: tma_load
// CHECK: tilecc::wgmma_wait<1>();
// CHECK: if (lane == 0) tilecc::mbarrier_arrive(k_empty + 8 * (release_sel));
// CHECK: tilecc::wgmma_wait<0>();
// CHECK: if (lane == 0) tilecc::mbarrier_arrive(k_empty + 8 * (release_sel_1));
// The epilogue through TMA: wait until the previous tile's copy has read the buffer, fill it,
// fence, one thread copies each 64-column panel out; the last copy is waited for at the end.
// CHECK: if (threadIdx.x == 0) tilecc::tma_store_wait<0>();
// CHECK-NEXT: tilecc::named_barrier_sync(1, 256);  // writes after the reads of tma_store
// CHECK: *reinterpret_cast<unsigned*>(store_out + tilecc::swizzled<128, 128>(
// CHECK: tilecc::fence_proxy_async();
// CHECK: tilecc::named_barrier_sync(1, 256);  // reads after the writes of shared_store
// CHECK: tilecc::tma_store_2d(&store_out_desc, store_out, {{[a-z_0-9]+}}, {{[a-z_0-9]+}});
// CHECK: tilecc::tma_store_2d(&store_out_desc, store_out + 49152,
// CHECK: if (threadIdx.x == 0) tilecc::tma_store_wait<0>();
// CHECK-NEXT: } else {  // warps 8..11
// CHECK-NEXT: tilecc::setmaxnreg_dec<40>();
// CHECK-NEXT: if (warp >= 8 && warp < 9) {  // warp 8
// CHECK: for (int k_1 = 0; k_1 < K; k_1 += 64) {
// CHECK: tilecc::mbarrier_wait(k_empty + 8 * (load_slot), k_xor);
// CHECK: if (threadIdx.x == 256) tilecc::mbarrier_arrive_expect_tx(k_full + 8 * (load_slot), 49152);
// CHECK: if (threadIdx.x == 256) tilecc::tma_load_2d(
// The 128x128 tile fits twice per SM: not specialised unless asked.
// CHECK-LABEL: ---- gemm<128, 128> -> gemm_128_128_sm90a_tma ----
// CHECK-NOT: producer warp group
// CHECK: __launch_bounds__(256)
// CHECK-NOT: tma_store
// CHECK-LABEL: ---- gemm_asked<128, 128> -> gemm_asked_128_128_sm90a_tma ----
// CHECK: // 8 warps and a producer warp group of 4 (384 threads)
// CHECK-LABEL: ---- gemm_declined<128, 256> -> gemm_declined_128_256_sm90a_tma ----
// CHECK-NOT: producer warp group
// CHECK: __launch_bounds__(256)
// Consumers that synchronise among themselves use a named barrier of their 256 threads (a
// __syncthreads would wait for the producer too); the second dot's A comes from registers; two
// dots in the loop: no batch in flight,
// each slot released at the end of its iteration, no persistent grid.
// CHECK-LABEL: ---- two_dots -> two_dots_sm90a_tma ----
// CHECK-NOT: tilecc_grid
// CHECK: if (warp < 8) {
// CHECK: tilecc::named_barrier_sync(1, 256);
// The second dot's A (the first's result, converted) in the accumulator layout: from registers.
// CHECK: // A {{[a-z_0-9]+}} [128][64] in registers, B
// CHECK-NEXT: unsigned dot_a[16];  // A in wgmma's register fragment
// CHECK-NEXT: dot_a[0] = tilecc::pack2({{[a-z_0-9]+}}[0], {{[a-z_0-9]+}}[1]);
// CHECK-NEXT: dot_a[1] = tilecc::pack2({{[a-z_0-9]+}}[16], {{[a-z_0-9]+}}[17]);
// CHECK: tilecc::wgmma_fence();
// CHECK: "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, {%32, %33, %34, %35}, %36, p, 1, 1, 1;\n}\n"
// CHECK: : "r"(dot_a[0]), "r"(dot_a[1]), "r"(dot_a[2]), "r"(dot_a[3]),
// CHECK: if (lane == 0) tilecc::mbarrier_arrive(t_empty + 8 * (pipe_read));
// CHECK: } else {
// The previous tile's bulk copy reads the TMA-store buffer until the issuing thread's wait, and
// no barrier before it (one between the main loop and the epilogue, fuzz finding 2026-11-25)
// orders it: the barrier before the buffer is rewritten comes after that wait. The row sums
// are stored from the accumulator's rows, where they are computed (no conversion).
// CHECK-LABEL: ---- gemm_row_sums<128, 256> -> gemm_row_sums_128_256_sm90a_tma ----
// CHECK: float* const store_ptr = sums + store_mul;
// CHECK-NOT: named_barrier_sync
// CHECK: if (threadIdx.x == 0) tilecc::tma_store_wait<0>();
// CHECK-NEXT: tilecc::named_barrier_sync(1, 256);  // writes after the reads of tma_store
// CHECK: tilecc::tma_store_2d(&store_out_desc,
// A tensor the kernel reads back after barrier() is stored by the threads (a bulk copy may
// still be in flight at the barrier); the other output goes through TMA.
// CHECK-LABEL: ---- gemm_reread<128, 256> -> gemm_reread_128_256_sm90a_tma ----
// CHECK: __global__
// CHECK: if ({{[a-z_0-9]+}}[reg]) *reinterpret_cast<unsigned*>({{[a-z_0-9]+}}[reg]) = word;
// CHECK: tilecc::tma_store_2d(&store_out_desc,
// Sixteen consumer warps (640 threads): ptxas launches each thread with 65536 / 640 registers,
// rounded down to 96, and setmaxnreg only moves registers within that pool: the consumers get
// what the producer gives up, 104 each (112, as if the whole register file were the pool, never
// came: the consumers waited for it forever, found on the H100).
// CHECK-LABEL: ---- gemm_wide<256, 128> -> gemm_wide_256_128_sm90a_tma ----
// CHECK: // 16 warps and a producer warp group of 4 (640 threads) per program, for sm_90a.
// CHECK: __global__ void __launch_bounds__(640, 1) gemm_wide_256_128_sm90a_tma(
// CHECK: if (warp < 16) {  // warps 0..15
// CHECK-NEXT: tilecc::setmaxnreg_inc<104>();
// CHECK: } else {  // warps 16..19
// CHECK-NEXT: tilecc::setmaxnreg_dec<40>();
// The launcher: the rounds of one program per SM with the tiles spread over them, the grid as the
// last argument.
// CHECK-LABEL: cudaError_t launch_gemm_128_256(
// CHECK: const unsigned long long tilecc_tiles = 1ull * grid.x * grid.y * grid.z;
// CHECK: const dim3 tilecc_programs(tilecc::persistent_programs(tilecc_tiles, tilecc::sm_count()));
// CHECK: ::tilecc_kernels::gemm_128_256_sm90a_tma<<<tilecc_programs, 384, {{[0-9]+}}, stream>>>({{.*}}, *tilecc_desc_0_2, grid);

// The warning names what was missing.
// DIAG: cuda_warp_specialize.tile.cpp:[[@LINE+2]]:6: warning: kernel 'no_loop' asks for warp_specialize = true, but no dot operand is copied with TMA
TILECC_KERNEL(num_warps = 4, warp_specialize = true)
void no_loop(float* out) { store(out + arange<128>(), 1.0f); }

template <int BM, int BN, bool WS>
void gemm_body(const half* a, const half* b, half* c, int M, int N, int K) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<64>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto b_tile = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}

// DIAG: cuda_warp_specialize.tile.cpp:[[@LINE+2]]:6: warning: kernel 'gemm_returns' asks for warp_specialize = true, but the kernel has a return
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = true)
void gemm_returns(const half* a, const half* b, half* c, int M, int N, int K) {
  if (program_id(0) * 128 >= M) return;
  gemm_body<128, 128, true>(a, b, c, M, N, K);
}

template <int BM, int BN>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm(const half* a, const half* b, half* c, int M, int N, int K) { gemm_body<BM, BN, true>(a, b, c, M, N, K); }

template <int BM, int BN>
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = true)
void gemm_asked(const half* a, const half* b, half* c, int M, int N, int K) { gemm_body<BM, BN, true>(a, b, c, M, N, K); }

template <int BM, int BN>
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = false)
void gemm_declined(const half* a, const half* b, half* c, int M, int N, int K) { gemm_body<BM, BN, false>(a, b, c, M, N, K); }

template <int BM, int BN>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_row_sums(const half* a, const half* b, half* c, float* sums, int M, int N, int K) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<64>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto b_tile = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(sums + pid_n * M + rm, sum<1>(acc), rm < M);
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}

template <int BM, int BN>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_reread(const half* a, const half* b, half* c, half* c_copy, int M, int N, int K) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<64>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto b_tile = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  auto offs = cast<int64_t>(col(rm)) * N + row(rn);
  auto mask = (col(rm) < M) & (row(rn) < N);
  store(c + offs, cast<half>(acc), mask);
  barrier();
  store(c_copy + offs, load(c + offs, mask, 0.0f), mask);
}

template void gemm<128, 256>(const half*, const half*, half*, int, int, int);
template void gemm<128, 128>(const half*, const half*, half*, int, int, int);
template void gemm_asked<128, 128>(const half*, const half*, half*, int, int, int);
template void gemm_declined<128, 256>(const half*, const half*, half*, int, int, int);

// Attention's shape: a score tile through a cross-warp reduction, then a second dot.
TILECC_KERNEL(num_warps = 8, num_stages = 2, warp_specialize = true)
void two_dots(const half* q, const half* k, const half* v, float* out, int n) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rd = arange<64>();
  auto q_tile = load(q + cast<int64_t>(col(rm)) * 64 + row(rd), col(rm) < n, 0.0f);
  auto acc = zeros<float, 128, 64>();
  auto total = zeros<float, 64>();
  for (int t = 0; t < n; t += 64) {
    auto rn = t + arange<64>();
    auto k_tile = load(k + cast<int64_t>(col(rn)) * 64 + row(rd), col(rn) < n, 0.0f);
    auto v_tile = load(v + cast<int64_t>(col(rn)) * 64 + row(rd), col(rn) < n, 0.0f);
    auto s = dot(q_tile, trans(k_tile));
    total = total + sum<0>(s);
    acc = dot(cast<half>(s), v_tile, acc);
  }
  store(out + cast<int64_t>(col(rm)) * 64 + row(rd), acc + row(total), col(rm) < n);
}

template void gemm_row_sums<128, 256>(const half*, const half*, half*, float*, int, int, int);
template void gemm_reread<128, 256>(const half*, const half*, half*, half*, int, int, int);

template <int BM, int BN>
TILECC_KERNEL(num_warps = 16, num_stages = 3, warp_specialize = true)
void gemm_wide(const half* a, const half* b, half* c, int M, int N, int K) { gemm_body<BM, BN, true>(a, b, c, M, N, K); }

template void gemm_wide<256, 128>(const half*, const half*, half*, int, int, int);
