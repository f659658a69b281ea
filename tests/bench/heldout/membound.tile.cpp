// Held-out speed check, memory-bound: Triton's fused-softmax (tutorial 02, a grid-stride loop over
// rows), layer-norm forward (tutorial 05, columns in BLOCK_SIZE chunks, three passes) and an
// RMSNorm forward as users port them, at the tutorials' choices for rows of 4096 fp16 elements
// (BLOCK_SIZE = 4096, num_warps 8; RMSNorm 4 warps). membound.py times them against torch.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK_SIZE, int WARPS>
TILECC_KERNEL(num_warps = WARPS)
void hb_softmax(T* output_ptr, const T* input_ptr, int input_row_stride, int output_row_stride, int n_rows, int n_cols) {
  const int row_start = program_id(0);
  const int row_step = num_programs(0);
  for (int row_idx = row_start; row_idx < n_rows; row_idx += row_step) {
    const T* row_start_ptr = input_ptr + row_idx * input_row_stride;
    auto col_offsets = arange<BLOCK_SIZE>();
    auto mask = col_offsets < n_cols;
    auto row = cast<float>(load(row_start_ptr + col_offsets, mask, -INFINITY));
    auto row_minus_max = row - max<0>(row);
    auto numerator = exp(row_minus_max);
    auto denominator = sum<0>(numerator);
    T* output_row_start_ptr = output_ptr + row_idx * output_row_stride;
    store(output_row_start_ptr + col_offsets, cast<T>(numerator / denominator), mask);
  }
}

template <class T, int BLOCK_SIZE, int WARPS>
TILECC_KERNEL(num_warps = WARPS)
void hb_layernorm(const T* X, T* Y, const T* W, const T* B, float* Mean, float* Rstd, int stride, int N, float eps) {
  const int row = program_id(0);
  Y += row * stride;
  X += row * stride;
  auto _mean = zeros<float, BLOCK_SIZE>();
  for (int off = 0; off < N; off += BLOCK_SIZE) {
    auto cols = off + arange<BLOCK_SIZE>();
    _mean += cast<float>(load(X + cols, cols < N, 0.0f));
  }
  const float mean = sum(_mean) / N;
  auto _var = zeros<float, BLOCK_SIZE>();
  for (int off = 0; off < N; off += BLOCK_SIZE) {
    auto cols = off + arange<BLOCK_SIZE>();
    auto x = cast<float>(load(X + cols, cols < N, 0.0f));
    x = where(cols < N, x - mean, 0.0f);
    _var += x * x;
  }
  const float var = sum(_var) / N;
  const float rstd = 1 / std::sqrt(var + eps);
  store(Mean + row, mean);
  store(Rstd + row, rstd);
  for (int off = 0; off < N; off += BLOCK_SIZE) {
    auto cols = off + arange<BLOCK_SIZE>();
    auto mask = cols < N;
    auto w = load(W + cols, mask);
    auto b = load(B + cols, mask);
    auto x = cast<float>(load(X + cols, mask, 0.0f));
    auto y = (x - mean) * rstd * cast<float>(w) + cast<float>(b);
    store(Y + cols, cast<T>(y), mask);
  }
}

template <class T, int BLOCK_SIZE, int WARPS>
TILECC_KERNEL(num_warps = WARPS)
void hb_rmsnorm(T* Y, int64_t y_row_stride, const T* X, int64_t x_row_stride, const T* W, float* RSTD, int n_cols, float eps) {
  const int row_idx = program_id(0);
  auto col_offsets = arange<BLOCK_SIZE>();
  auto mask = col_offsets < n_cols;
  Y += row_idx * y_row_stride;
  X += row_idx * x_row_stride;
  auto X_f = cast<float>(load(X + col_offsets, mask, 0.0f));
  auto W_row = load(W + col_offsets, mask, 0.0f);
  const float rstd = 1.0f / std::sqrt(sum(X_f * X_f) / n_cols + eps);
  store(RSTD + row_idx, rstd);
  store(Y + col_offsets, cast<T>(X_f * rstd * cast<float>(W_row)), mask);
}

template void hb_softmax<half, 4096, 8>(half*, const half*, int, int, int, int);
template void hb_layernorm<half, 4096, 8>(const half*, half*, const half*, const half*, float*, float*, int, int, float);
template void hb_rmsnorm<half, 4096, 4>(half*, int64_t, const half*, int64_t, const half*, float*, int, float);
