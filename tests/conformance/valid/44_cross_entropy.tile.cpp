// Second audit: cross-entropy loss forward (Liger style): one row of logits per program,
// streamed in BLOCK-wide chunks with an online max / sum-exp carried in scalars; the target's
// logit by a scalar load; ignore_index rows return early (a data-dependent scalar `if`); the
// backward writes softmax - onehot (scaled by 1 / n_non_ignored) into a separate gradient.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK_SIZE>
TILECC_KERNEL(num_warps = 8)
void a2_xent_fwd(const T* X_ptr, int64_t X_stride, const int64_t* Y_ptr, float* loss_ptr, float* lse_ptr, int n_cols,
                 int ignore_index) {
  const int64_t program_id_ = program_id(0);
  const int64_t y = load(Y_ptr + program_id_);
  if (y == ignore_index) {
    store(loss_ptr + program_id_, 0.0f);
    store(lse_ptr + program_id_, 0.0f);
    return;
  }
  X_ptr += program_id_ * X_stride;
  float m = -INFINITY;
  float d = 0.0f;
  for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto X_offsets = i + arange<BLOCK_SIZE>();
    auto X_block = cast<float>(load(X_ptr + X_offsets, X_offsets < n_cols, -INFINITY));
    const float block_max = max(X_block);
    const float m_new = tilecc::max(m, block_max);
    d = d * std::exp(m - m_new) + sum(exp(X_block - m_new));
    m = m_new;
  }
  const float lse = m + std::log(d);
  const float ori_X_y = cast<float>(load(X_ptr + y));
  store(loss_ptr + program_id_, lse - ori_X_y);
  store(lse_ptr + program_id_, lse);
}
template void a2_xent_fwd<float, 1024>(const float*, int64_t, const int64_t*, float*, float*, int, int);
template void a2_xent_fwd<bfloat16, 4096>(const bfloat16*, int64_t, const int64_t*, float*, float*, int, int);

template <class T, int BLOCK_SIZE>
TILECC_KERNEL(num_warps = 8)
void a2_xent_bwd(const T* X_ptr, T* dX_ptr, int64_t X_stride, const int64_t* Y_ptr, const float* lse_ptr, int n_cols,
                 int n_non_ignore, int ignore_index) {
  const int64_t r = program_id(0);
  const int64_t y = load(Y_ptr + r);
  const float lse = load(lse_ptr + r);
  const bool ignored = y == ignore_index;
  for (int i = 0; i < n_cols; i += BLOCK_SIZE) {
    auto offs = i + arange<BLOCK_SIZE>();
    auto mask = offs < n_cols;
    auto x = cast<float>(load(X_ptr + r * X_stride + offs, mask, 0.0f));
    auto g = (exp(x - lse) - where(offs == y, 1.0f, 0.0f)) / n_non_ignore;
    store(dX_ptr + r * X_stride + offs, cast<T>(where(ignored, 0.0f, g)), mask);
  }
}
template void a2_xent_bwd<float, 1024>(const float*, float*, int64_t, const int64_t*, const float*, int, int, int);
template void a2_xent_bwd<bfloat16, 4096>(const bfloat16*, bfloat16*, int64_t, const int64_t*, const float*, int, int,
                                          int);
