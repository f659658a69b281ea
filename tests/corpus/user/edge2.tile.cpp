// Indirect and data-dependent GEMM loops (user-kernel probe set, second round).
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// 22. MoE grouped GEMM (vLLM fused_moe style): the rows of each BM block are tokens gathered
//     through sorted_ids (padding ids = num_tokens are masked), the block's expert comes from
//     memory, the expert's weight is [N][K] (x · Wᵀ); results scattered back by token.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void moe_gemm(const half* a, const half* w, const int* sorted_ids, const int* expert_of_block, half* c, int num_valid,
              int N, int K, int num_tokens) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  const int e = load(expert_of_block + pid_m);
  w += int64_t{e} * N * K;
  auto offs = pid_m * BM + arange<BM>();
  auto tok = load(sorted_ids + offs, offs < num_valid, num_tokens);
  auto tmask = tok < num_tokens;
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(a + cast<int64_t>(col(tok)) * K + row(k + rk), col(tmask) & row(k + rk < K), 0.0f);
    auto y = load(w + cast<int64_t>(col(rn)) * K + row(k + rk), col(rn < N) & row(k + rk < K), 0.0f);
    acc = dot(x, trans(y), acc);
  }
  store(c + cast<int64_t>(col(tok)) * N + row(rn), cast<half>(acc), col(tmask) & row(rn < N));
}

template void moe_gemm<64, 64, 32>(const half*, const half*, const int*, const int*, half*, int, int, int, int);
template void moe_gemm<128, 128, 64>(const half*, const half*, const int*, const int*, half*, int, int, int, int);

// 23. Block-sparse GEMM: a K block contributes only where the block mask (from memory) says so,
//     an `if` on a loaded scalar around the loads and the dot inside the pipelined loop.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void blocksparse_gemm(const bfloat16* a, const bfloat16* b, const uint8_t* block_mask, float* c, int M, int N, int K) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  const int kblocks = cdiv(K, BK);
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int kb = 0; kb < kblocks; ++kb) {
    const int k = kb * BK;
    if (load(block_mask + pid_m * kblocks + kb) != 0) {
      auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
      auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(x, y, acc);
    }
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

template void blocksparse_gemm<128, 128, 64>(const bfloat16*, const bfloat16*, const uint8_t*, float*, int, int, int);

// 24. Early exit before the K loop (a grid rounded up past M), then a TMA-friendly GEMM.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 8, num_stages = 4)
void gemm_early_exit(const half* a, const half* b, half* c, int M, int N, int K) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  if (pid_m * BM >= M) return;
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}

template void gemm_early_exit<128, 128, 64>(const half*, const half*, half*, int, int, int);

// 25. Loop spellings: `!=` over a K padded to BK (Kp), `<=` with the block end as the variable,
//     and 2 warps on a 64x64 tile / 8 warps on a 64x256 tile.
template <int MODE, int BM, int BN, int WARPS>
TILECC_KERNEL(num_warps = WARPS, num_stages = 3)
void gemm_loopforms(const half* a, const half* b, float* c, int M, int N, int K, int Kp) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<32>();
  auto acc = zeros<float, BM, BN>();
  if constexpr (MODE == 0) {
    for (int k = 0; k != Kp; k += 32) {
      auto x = load(a + col(rm) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
      auto y = load(b + col(k + rk) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(x, y, acc);
    }
  } else {
    for (int kend = 32; kend <= Kp; kend += 32) {
      const int k = kend - 32;
      auto x = load(a + col(rm) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
      auto y = load(b + col(k + rk) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(x, y, acc);
    }
  }
  store(c + col(rm) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

template void gemm_loopforms<0, 64, 64, 2>(const half*, const half*, float*, int, int, int, int);
template void gemm_loopforms<1, 64, 256, 8>(const half*, const half*, float*, int, int, int, int);
