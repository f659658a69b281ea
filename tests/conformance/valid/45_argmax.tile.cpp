// Second audit: row argmax. (a) a long row streamed in chunks, the best value and index carried
// in scalars through a scalar `if` in the loop; (b) BLOCK_M short rows per program as a 2-D
// tile with argmax<1> / max<1> (bf16 input: ties are frequent, the first index must win).
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void a2_argmax_long(const float* x, int64_t stride, int* out_idx, float* out_val, int n_cols) {
  const int64_t r = program_id(0);
  float best = -INFINITY;
  int best_idx = 0;
  for (int off = 0; off < n_cols; off += BLOCK) {
    auto cols = off + arange<BLOCK>();
    auto v = load(x + r * stride + cols, cols < n_cols, -INFINITY);
    const float m = max(v);
    if (m > best) {
      best = m;
      best_idx = off + argmax(v);
    }
  }
  store(out_idx + r, best_idx);
  store(out_val + r, best);
}
template void a2_argmax_long<512>(const float*, int64_t, int*, float*, int);

template <int BLOCK_M, int BLOCK_N>
TILECC_KERNEL(num_warps = 4)
void a2_argmax_rows(const bfloat16* x, int64_t stride, int* out_idx, bfloat16* out_val, int n_rows, int n_cols) {
  auto rows = program_id(0) * BLOCK_M + arange<BLOCK_M>();
  auto cols = arange<BLOCK_N>();
  auto mask = col(rows < n_rows) & row(cols < n_cols);
  auto v = load(x + col(cast<int64_t>(rows)) * stride + row(cols), mask, -INFINITY);
  store(out_idx + rows, argmax<1>(v), rows < n_rows);
  store(out_val + rows, max<1>(v), rows < n_rows);
}
template void a2_argmax_rows<16, 128>(const bfloat16*, int64_t, int*, bfloat16*, int, int);
