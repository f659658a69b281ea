// Row-wise softmax, one row per program; BLOCK >= n_cols. Computes in float for any T, with the
// GPU's fast exponential (terms below FLT_MIN flush to zero, which a sum of at least one 1 cannot
// notice) and one division per row, as Triton's tl.exp and `/` compile: fewer instructions per
// element than the accurate exp and a division per element (README, "Thirteenth run").
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK>
TILECC_KERNEL(num_warps = 8)
void softmax(const T* x, T* out, int n_cols, int64_t x_row_stride, int64_t out_row_stride) {
  const int64_t r = program_id(0);
  auto cols = arange<BLOCK>();
  auto mask = cols < n_cols;
  auto v = cast<float>(load(x + r * x_row_stride + cols, mask, -INFINITY));
  auto e = fast_exp(v - max(v));
  const float inv = 1.0f / sum(e);
  store(out + r * out_row_stride + cols, cast<T>(e * inv), mask);
}

template void softmax<float, 1024>(const float*, float*, int, int64_t, int64_t);
template void softmax<float, 4096>(const float*, float*, int, int64_t, int64_t);
template void softmax<half, 4096>(const half*, half*, int, int64_t, int64_t);
