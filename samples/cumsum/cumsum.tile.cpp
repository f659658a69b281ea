// Inclusive prefix sums of each row, one row per program: BLOCK columns at a time, the running
// total of the earlier blocks carried across the loop.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BLOCK>
TILECC_KERNEL(num_warps = 8)
void cumsum_rows(const float* x, float* y, int n_cols, int64_t row_stride) {
  const int64_t r = program_id(0);
  float carry = 0.0f;
  for (int c = 0; c < n_cols; c += BLOCK) {
    auto cols = c + arange<BLOCK>();
    auto m = cols < n_cols;
    auto v = load(x + r * row_stride + cols, m, 0.0f);
    store(y + r * row_stride + cols, cumsum(v) + carry, m);
    carry += sum(v);
  }
}

template void cumsum_rows<4096>(const float*, float*, int, int64_t);
template void cumsum_rows<512>(const float*, float*, int, int64_t);
