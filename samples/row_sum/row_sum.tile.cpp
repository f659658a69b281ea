// Sum of each row, one row per program: BLOCK partial sums carried across the column loop.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BLOCK>
TILECC_KERNEL(num_warps = 8)
void row_sum(const float* x, float* out, int n_cols, int64_t row_stride) {
  const int64_t r = program_id(0);
  const float* row_ptr = x + r * row_stride;
  auto acc = zeros<float, BLOCK>();
  for (int c = 0; c < n_cols; c += BLOCK) {
    auto cols = c + arange<BLOCK>();
    acc += load(row_ptr + cols, cols < n_cols, 0.0f);
  }
  store(out + r, sum(acc));
}

template void row_sum<2048>(const float*, float*, int, int64_t);
template void row_sum<256>(const float*, float*, int, int64_t);
