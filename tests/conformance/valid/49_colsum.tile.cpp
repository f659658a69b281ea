// Second audit: column sums of a ragged [M, N] matrix. (a) a program per BLOCK_N columns walks
// the rows with a 2-D accumulator and reduces sum<0> once (fp32, and fp16 input with fp32
// output); (b) split over rows: program_id(1) takes ROWS_PER rows and atomically adds its
// partial column sums (fp32 atomics).
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK_M, int BLOCK_N>
TILECC_KERNEL(num_warps = 4)
void a2_colsum(const T* x, float* out, int M, int N, int64_t ld) {
  auto cn = program_id(0) * BLOCK_N + arange<BLOCK_N>();
  auto acc = zeros<float, BLOCK_M, BLOCK_N>();
  for (int m = 0; m < M; m += BLOCK_M) {
    auto rm = m + arange<BLOCK_M>();
    acc += cast<float>(load(x + col(cast<int64_t>(rm)) * ld + row(cn), col(rm < M) & row(cn < N), 0.0f));
  }
  store(out + cn, sum<0>(acc), cn < N);
}
template void a2_colsum<float, 32, 64>(const float*, float*, int, int, int64_t);
template void a2_colsum<half, 64, 128>(const half*, float*, int, int, int64_t);

template <int BLOCK_M, int BLOCK_N, int ROWS_PER>
TILECC_KERNEL(num_warps = 4)
void a2_colsum_atomic(const float* x, float* out, int M, int N, int64_t ld) {
  auto cn = program_id(0) * BLOCK_N + arange<BLOCK_N>();
  const int m0 = program_id(1) * ROWS_PER;
  auto acc = zeros<float, BLOCK_N>();
  for (int m = m0; m < m0 + ROWS_PER; m += BLOCK_M) {
    auto rm = m + arange<BLOCK_M>();
    acc += sum<0>(load(x + col(rm) * ld + row(cn), col(rm < M) & row(cn < N), 0.0f));
  }
  atomic_add(out + cn, acc, cn < N);
}
template void a2_colsum_atomic<16, 128, 64>(const float*, float*, int, int, int64_t);
