// Split-K GEMMs written the two ways users write them: program_id(2) picks a part of the
// reduction, and the epilogue adds the partial product into C with atomics (C starts at zero).
// Both loops are the plain GEMM's loop: on sm_90a their operands are TMA boxes (the slice's
// start, `pid_k * blocks_per_split * BK`, stays on the K axis of the box), warp-specialised and
// persistent like the matmul sample. tests/gpu/gpu_split_k.cpp checks them against the host twin;
// the benchmark times them.
#include <tilecc/tile.hpp>
using namespace tilecc;

// Contiguous slices of whole blocks: slice pid_k covers blocks [pid_k * blocks_per_split, ...).
// Slices start on a block, so the mask at the matrix's K edge is the only one the loads need.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void matmul_split_k(const half* a, const half* b, float* c, int M, int N, int K, int blocks_per_split) {
  const int pid_m = program_id(0), pid_n = program_id(1), pid_k = program_id(2);
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  const int k_begin = pid_k * blocks_per_split * BK;
  const int k_end = min(K, k_begin + blocks_per_split * BK);
  auto acc = zeros<float, BM, BN>();
  for (int k = k_begin; k < k_end; k += BK) {
    auto rk = k + arange<BK>();
    auto a_tile = load(a + cast<int64_t>(col(rm)) * K + row(rk), (col(rm) < M) & row(rk < K), 0.0f);
    auto b_tile = load(b + cast<int64_t>(col(rk)) * N + row(rn), col(rk < K) & row(rn < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  atomic_add(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

template void matmul_split_k<128, 128, 64>(const half*, const half*, float*, int, int, int, int);

// Triton's form: program pid_k takes every SPLIT_K-th block of K, pointers advance by SPLIT_K
// blocks, the mask is what is left of K.
template <int BM, int BN, int BK, int SPLIT_K>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void matmul_split_k_strided(const half* a, const half* b, float* c, int M, int N, int K) {
  const int pid_m = program_id(0), pid_n = program_id(1), pid_k = program_id(2);
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = pid_k * BK + arange<BK>();
  auto a_ptrs = a + cast<int64_t>(col(rm)) * K + row(rk);
  auto b_ptrs = b + cast<int64_t>(col(rk)) * N + row(rn);
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < cdiv(K, BK * SPLIT_K); ++k) {
    const int k_left = K - k * BK * SPLIT_K;
    auto a_tile = load(a_ptrs, (col(rm) < M) & row(rk < k_left), 0.0f);
    auto b_tile = load(b_ptrs, col(rk < k_left) & row(rn < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
    a_ptrs += BK * SPLIT_K;
    b_ptrs += cast<int64_t>(BK * SPLIT_K) * N;
  }
  atomic_add(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

template void matmul_split_k_strided<128, 128, 64, 4>(const half*, const half*, float*, int, int, int);
