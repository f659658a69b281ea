// Block-sparse, listed-block and reverse-K GEMMs (the loop forms this stop pipelines), and the
// plain ascending GEMM of the same tiles for reference.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void sparse_gemm(const bfloat16* a, const bfloat16* b, const uint8_t* block_mask, float* c, int M, int N, int K) {
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
template void sparse_gemm<128, 128, 64>(const bfloat16*, const bfloat16*, const uint8_t*, float*, int, int, int);

template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void listed_gemm(const bfloat16* a, const bfloat16* b, const int* blocks, int nblocks, float* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int j = 0; j < nblocks; ++j) {
    const int k = load(blocks + j) * BK;
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}
template void listed_gemm<128, 128, 64>(const bfloat16*, const bfloat16*, const int*, int, float*, int, int, int);

template <int BM, int BN, int BK, bool DOWN>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dir_gemm(const bfloat16* a, const bfloat16* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  if constexpr (DOWN) {
    for (int k = (cdiv(K, BK) - 1) * BK; k >= 0; k -= BK) {
      auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
      auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(x, y, acc);
    }
  } else {
    for (int k = 0; k < K; k += BK) {
      auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
      auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(x, y, acc);
    }
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}
template void dir_gemm<128, 128, 64, true>(const bfloat16*, const bfloat16*, float*, int, int, int);
template void dir_gemm<128, 128, 64, false>(const bfloat16*, const bfloat16*, float*, int, int, int);
