// Warp specialisation around a loop the user wrote (a persistent GEMM, Triton's tutorial 09): the
// TMA loop is in the body of a top-level loop over output tiles. Both roles run that loop: the
// producer with only the scalars its boxes' coordinates need, the consumers with the rest. One
// ring serves every tile, its allocation and barriers initialised once before the loop, its slot
// and phase carried from one tile's K loop to the next, so the producer copies the next tile's
// first boxes while the consumers finish this one (the slot of a tile's last iteration is
// released after the final wgmma wait). The epilogue's store goes through TMA (it overlaps the
// next tile). The launcher keeps the user's grid. Where the form is not this one, the warning
// says why: a TMA loop two loops deep, and coordinates from a value the tile loop carries and
// the producer cannot compute. An operand the tile loop itself loads is copied once per tile.
// ARGS: --arch sm_80,sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// One output tile: rows rm, columns rn, the K loop (the loop the TMA copies feed), the store.
template <int BN>
void gemm_tile(const half* a, const half* b, half* c, const tile<int, 128>& rm, const tile<int, BN>& rn, int M, int N, int K) {
  auto rk = arange<64>();
  auto acc = zeros<float, 128, BN>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto b_tile = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}

// CHECK-LABEL: ---- gemm_tiles -> gemm_tiles_sm90a_tma ----
// CHECK: // Both roles run the loop at line [[#TILES:]] around the TMA loop; the ring's slot and phase carry over its
// CHECK: __global__ void __launch_bounds__(384, 1) gemm_tiles_sm90a_tma(
// CHECK-NOT: tilecc_grid
// CHECK-SAME: const __grid_constant__ CUtensorMap store_out_desc) {
// The ring is allocated and its barriers initialised once, before either role's tile loop.
// CHECK: tilecc::mbarrier_init(k_full + 8 * i, 1);
// CHECK: tilecc::mbarrier_init(k_empty + 8 * i, 8);
// CHECK: __syncthreads();  // the mbarriers are initialised before either role waits on them
// CHECK-NEXT: if (warp < 8) {  // warps 0..7
// CHECK-NEXT: tilecc::setmaxnreg_inc<232>();
// CHECK-NEXT: int ring_slot = 0;
// CHECK-NEXT: int ring_phase = 0;
// CHECK-NEXT: for (int tile = tile_pid; tile < {{[a-z_0-9]+}}; tile += programs) {
// CHECK-NOT: mbarrier_init
// CHECK: int pipe_read = ring_slot;
// CHECK-NEXT: int pipe_phase = ring_phase;
// CHECK-NEXT: for (int k = 0; k < K; k += 64) {
// CHECK-NEXT: tilecc::mbarrier_wait(k_full + 8 * (pipe_read), pipe_phase);
// CHECK-NOT: tma_load
// CHECK: tilecc::wgmma_wait<1>();
// CHECK: if (lane == 0) tilecc::mbarrier_arrive(k_empty + 8 * (release_sel));
// The last iteration's slot, after the final wait (the producer's next tile waits for it).
// CHECK: tilecc::wgmma_wait<0>();
// CHECK: if (lane == 0) tilecc::mbarrier_arrive(k_empty + 8 * (release_sel_1));
// CHECK: if (threadIdx.x == 0) tilecc::tma_store_wait<0>();
// CHECK: tilecc::tma_store_2d(&store_out_desc, store_out,
// CHECK: ring_slot = pipe_read;
// CHECK-NEXT: ring_phase = pipe_phase;
// CHECK-NEXT: }
// CHECK-NEXT: if (threadIdx.x == 0) tilecc::tma_store_wait<0>();
// CHECK-NEXT: } else {  // warps 8..11
// CHECK-NEXT: tilecc::setmaxnreg_dec<40>();
// CHECK-NEXT: if (warp >= 8 && warp < 9) {  // warp 8
// CHECK-NEXT: int load_slot = 0;
// CHECK-NEXT: int load_phase = 0;
// CHECK-NEXT: for (int tile_1 = tile_pid; tile_1 < {{[a-z_0-9]+}}; tile_1 += programs) {
// CHECK-NOT: wgmma
// CHECK: int load_slot_1 = load_slot;
// CHECK-NEXT: int load_phase_1 = load_phase;
// CHECK-NEXT: for (int k_1 = 0; k_1 < K; k_1 += 64) {
// CHECK: tilecc::mbarrier_wait(k_empty + 8 * (load_slot_1), k_xor);
// CHECK: tilecc::tma_load_2d(
// CHECK: load_slot = load_slot_1;
// CHECK-NEXT: load_phase = load_phase_1;
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_tiles(const half* a, const half* b, half* c, int M, int N, int K) {
  const int programs = num_programs(0);
  for (int tile = program_id(0); tile < cdiv(M, 128) * cdiv(N, 256); tile += programs) {
    auto rm = tile / cdiv(N, 256) * 128 + arange<128>();
    auto rn = tile % cdiv(N, 256) * 256 + arange<256>();
    gemm_tile(a, b, c, rm, rn, M, N, K);
  }
}

// DIAG: cuda_ws_tile_loop.tile.cpp:[[@LINE+2]]:6: warning: kernel 'gemm_repeated' asks for warp_specialize = true, but its TMA loop is nested more than one loop deep
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = true)
void gemm_repeated(const half* a, const half* b, half* c, int M, int N, int K, int repeats) {
  for (int r = 0; r < repeats; ++r) {
    for (int tile = program_id(0); tile < cdiv(M, 128) * cdiv(N, 128); tile += num_programs(0)) {
      auto rm = tile / cdiv(N, 128) * 128 + arange<128>();
      auto rn = tile % cdiv(N, 128) * 128 + arange<128>();
      gemm_tile(a, b, c, rm, rn, M, N, K);
    }
  }
}

// The tile loop carries the next tile's first row, read from memory: the producer cannot
// compute it.
// DIAG: cuda_ws_tile_loop.tile.cpp:[[@LINE+2]]:6: warning: kernel 'gemm_carried_rows' asks for warp_specialize = true, but its TMA copies' coordinates depend on a value the loop around its TMA loop carries, which is not scalar arithmetic of values before that loop
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = true)
void gemm_carried_rows(const half* a, const half* b, half* c, const int* next_row, int M, int N, int K) {
  int first_row = program_id(0) * 128;
  for (int tile = program_id(0); tile < cdiv(M, 128); tile += num_programs(0)) {
    auto rm = first_row + arange<128>();
    auto rn = arange<128>();
    gemm_tile(a, b, c, rm, rn, M, N, K);
    first_row = load(next_row + tile);
  }
}

// Triton's persistent form (tutorial 06's _attn_fwd_persist): the loop counts this program's
// tiles (a count computed with an `if`) and carries the tile index; the producer's loop carries
// it too, computed as the consumers' is.
// CHECK-LABEL: ---- gemm_counted -> gemm_counted_sm90a_tma ----
// CHECK: if (warp < 8) {  // warps 0..7
// CHECK: for (int i = 0; i < tiles_per_program{{[_0-9]*}}; ++i) {
// CHECK: } else {  // warps 8..11
// CHECK: int tile_idx_{{[0-9]+}} = prog_id;
// CHECK-NEXT: for (int i_1 = 0; i_1 < tiles_per_program{{[_0-9]*}}; ++i_1) {
// CHECK-NOT: wgmma
// CHECK: tilecc::tma_load_2d(
// CHECK: tile_idx_{{[0-9]+}} = tile_idx_{{[0-9]+}};
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_counted(const half* a, const half* b, half* c, int M, int N, int K) {
  const int prog_id = program_id(0), num_progs = num_programs(0);
  const int total = cdiv(M, 128) * cdiv(N, 256);
  int tiles_per_program = total / num_progs;
  if (prog_id < total % num_progs) tiles_per_program += 1;
  int tile_idx = prog_id;
  for (int i = 0; i < tiles_per_program; ++i) {
    auto rm = tile_idx / cdiv(N, 256) * 128 + arange<128>();
    auto rn = tile_idx % cdiv(N, 256) * 256 + arange<256>();
    gemm_tile(a, b, c, rm, rn, M, N, K);
    tile_idx += num_progs;
  }
}

// An operand loaded by the tile loop itself and read only by the key loop's wgmma (the queries
// of Triton's persistent attention): the key loop copies it with TMA once per tile, into one
// buffer, on a barrier of its own waited on with the parity the tile loop carries; the producer
// copies it, after a wait for every consumer warp's release at the end of the previous tile's key
// loop (a fresh barrier passes parity 1 at once).
// CHECK-LABEL: ---- attention_tiles -> attention_tiles_sm90a_tma ----
// CHECK: // The operand copied at line [[#@LINE+25]] is copied once per iteration of that loop, into one buffer: the
// CHECK: tilecc::mbarrier_init(s_operand_empty + 8 * i, 8);
// CHECK: __syncthreads();  // the mbarriers are initialised before either role waits on them
// CHECK-NEXT: if (warp < 8) {  // warps 0..7
// CHECK: int q_tile_phase = 0;
// CHECK: for (int t = t_pid; t < {{[a-z_0-9]+}}; t += {{[a-z_0-9]+}}) {
// CHECK-NOT: tma_load
// CHECK: tilecc::mbarrier_wait(q_tile_full, q_tile_phase);
// CHECK: for (int s = 0; s < n; s += 64) {
// CHECK: if (lane == 0) tilecc::mbarrier_arrive(s_operand_empty);
// CHECK: q_tile_phase = q_tile_xor;
// CHECK: } else {  // warps 8..11
// CHECK: int operand_phase = 0;
// CHECK-NEXT: for (int t_1 = t_pid; t_1 < {{[a-z_0-9]+}}; t_1 += {{[a-z_0-9]+}}) {
// CHECK: tilecc::mbarrier_wait(s_operand_empty, [[XOR:t_xor[_0-9]*]]);
// CHECK-NEXT: if (threadIdx.x == 256) tilecc::mbarrier_arrive_expect_tx(q_tile_full, 16384);
// CHECK-NEXT: if (threadIdx.x == 256) tilecc::tma_load_3d(q_tile_smem, &q_tile_desc, q_tile_full,
// CHECK: for (int s_1 = 0; s_1 < n; s_1 += 64) {
// CHECK: operand_phase = [[XOR]];
TILECC_KERNEL(num_warps = 8, num_stages = 2, warp_specialize = true)
void attention_tiles(const half* q, const half* k, const half* v, half* out, int n, int heads) {
  for (int t = program_id(0); t < cdiv(n, 128) * heads; t += num_programs(0)) {
    const int64_t head = int64_t(t / cdiv(n, 128)) * n * 64;
    auto rm = t % cdiv(n, 128) * 128 + arange<128>();
    auto rd = arange<64>();
    auto q_tile = load(q + head + cast<int64_t>(col(rm)) * 64 + row(rd), col(rm) < n, 0.0f);
    auto acc = zeros<float, 128, 64>();
    for (int s = 0; s < n; s += 64) {
      auto rn = s + arange<64>();
      auto k_tile = load(k + head + cast<int64_t>(col(rn)) * 64 + row(rd), col(rn) < n, 0.0f);
      auto v_tile = load(v + head + cast<int64_t>(col(rn)) * 64 + row(rd), col(rn) < n, 0.0f);
      acc = dot(cast<half>(dot(q_tile, trans(k_tile))), v_tile, acc);
    }
    store(out + head + cast<int64_t>(col(rm)) * 64 + row(rd), cast<half>(acc), col(rm) < n);
  }
}

// The launchers (after every kernel) keep the grid they were given.
// CHECK-LABEL: cudaError_t launch_gemm_tiles(
// CHECK-NOT: persistent_programs
// CHECK: ::tilecc_kernels::gemm_tiles_sm90a_tma<<<grid, 384, {{[0-9]+}}, stream>>>(
// CHECK-NOT: grid);
