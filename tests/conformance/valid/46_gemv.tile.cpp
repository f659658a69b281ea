// Second audit: GEMV y = A·x + bias (A fp16 [M, K] row-major, x fp16, fp32 accumulate): a
// [BLOCK_M, BLOCK_K] accumulator reduced once after the loop; and a split-K form where
// program_id(1) takes a slice of K and atomically adds its partial dot products into y.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BLOCK_M, int BLOCK_K>
TILECC_KERNEL(num_warps = 4)
void a2_gemv(const half* A, const half* x, const float* bias, float* y, int M, int K, int64_t lda) {
  auto rm = program_id(0) * BLOCK_M + arange<BLOCK_M>();
  auto acc = zeros<float, BLOCK_M, BLOCK_K>();
  for (int k = 0; k < K; k += BLOCK_K) {
    auto rk = k + arange<BLOCK_K>();
    auto a = load(A + col(rm) * lda + row(rk), col(rm < M) & row(rk < K), 0.0f);
    auto xv = load(x + rk, rk < K, 0.0f);
    acc += cast<float>(a) * row(cast<float>(xv));
  }
  auto out = sum<1>(acc) + load(bias + rm, rm < M, 0.0f);
  store(y + rm, out, rm < M);
}
template void a2_gemv<32, 256>(const half*, const half*, const float*, float*, int, int, int64_t);
template void a2_gemv<8, 512>(const half*, const half*, const float*, float*, int, int, int64_t);

template <int BLOCK_M, int BLOCK_K>
TILECC_KERNEL(num_warps = 4)
void a2_gemv_splitk(const float* A, const float* x, float* y, int M, int K, int64_t lda, int k_per_split) {
  auto rm = program_id(0) * BLOCK_M + arange<BLOCK_M>();
  const int k_begin = program_id(1) * k_per_split;
  const int k_end = min(K, k_begin + k_per_split);
  auto acc = zeros<float, BLOCK_M>();
  for (int k = k_begin; k < k_end; k += BLOCK_K) {
    auto rk = k + arange<BLOCK_K>();
    auto a = load(A + col(rm) * lda + row(rk), col(rm < M) & row(rk < k_end), 0.0f);
    acc += sum<1>(a * row(load(x + rk, rk < k_end, 0.0f)));
  }
  atomic_add(y + rm, acc, rm < M);
}
template void a2_gemv_splitk<64, 128>(const float*, const float*, float*, int, int, int64_t, int);
