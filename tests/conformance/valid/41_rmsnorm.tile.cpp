// Second audit: RMSNorm forward (LLaMA style, fp32 statistics, weight in the input type) and
// backward dx, one row per program, BLOCK >= n_cols, row strides, 1/rms saved for backward.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK_SIZE>
TILECC_KERNEL(num_warps = 4)
void a2_rmsnorm_fwd(T* Y, int64_t y_row_stride, const T* X, int64_t x_row_stride, const T* W, float* RSTD, int n_cols,
                    float eps) {
  const int row_idx = program_id(0);
  auto col_offsets = arange<BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;
  Y += row_idx * y_row_stride;
  X += row_idx * x_row_stride;
  auto X_row = load(X + col_offsets, mask, 0.0f);
  auto X_f = cast<float>(X_row);
  auto W_row = load(W + col_offsets, mask, 0.0f);
  const float mean_square = sum(X_f * X_f) / n_cols;
  const float rstd = 1.0f / std::sqrt(mean_square + eps);
  store(RSTD + row_idx, rstd);
  auto Y_row = X_f * rstd * cast<float>(W_row);
  store(Y + col_offsets, cast<T>(Y_row), mask);
}
template void a2_rmsnorm_fwd<bfloat16, 1024>(bfloat16*, int64_t, const bfloat16*, int64_t, const bfloat16*, float*, int,
                                             float);
template void a2_rmsnorm_fwd<half, 4096>(half*, int64_t, const half*, int64_t, const half*, float*, int, float);
template void a2_rmsnorm_fwd<float, 128>(float*, int64_t, const float*, int64_t, const float*, float*, int, float);

// dx = rstd * (dy*w - x * rstd^2 * mean(dy*w*x))
template <class T, int BLOCK_SIZE>
TILECC_KERNEL(num_warps = 4)
void a2_rmsnorm_bwd(T* DX, const T* DY, const T* X, const T* W, const float* RSTD, int64_t stride, int n_cols) {
  const int64_t r = program_id(0);
  auto cols = arange<BLOCK_SIZE>();
  auto mask = cols < n_cols;
  auto dy = cast<float>(load(DY + r * stride + cols, mask, 0.0f));
  auto x = cast<float>(load(X + r * stride + cols, mask, 0.0f));
  auto w = cast<float>(load(W + cols, mask, 0.0f));
  const float rstd = load(RSTD + r);
  auto m = dy * w;
  const float dot_mx = sum(m * x) / n_cols;
  auto dx = rstd * m - (rstd * rstd * rstd * dot_mx) * x;
  store(DX + r * stride + cols, cast<T>(dx), mask);
}
template void a2_rmsnorm_bwd<bfloat16, 1024>(bfloat16*, const bfloat16*, const bfloat16*, const bfloat16*, const float*,
                                             int64_t, int);
