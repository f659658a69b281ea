// Second audit: rotary position embedding (GPT-NeoX "rotate half" form), in place on q and k
// of shape [tokens, heads, head_dim] (any strides), cos/sin of shape [tokens, head_dim / 2];
// one program per token, all heads as the rows of a 2-D tile; ragged heads and head_dim (96:
// a half of 48 in a 64-wide tile). The parameters are named cos and sin, as users name them.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK_H, int BLOCK_D>
void rotate(T* base, int64_t stride_h, const tile<float, 1, BLOCK_D>& c, const tile<float, 1, BLOCK_D>& s, int n_heads,
            int half_dim) {
  auto h = arange<BLOCK_H>();
  auto d = arange<BLOCK_D>();
  auto mask = (col(h) < n_heads) & (row(d) < half_dim);
  auto x1_ptrs = base + col(h) * stride_h + row(d);
  auto x2_ptrs = x1_ptrs + half_dim;
  auto x1 = cast<float>(load(x1_ptrs, mask, 0.0f));
  auto x2 = cast<float>(load(x2_ptrs, mask, 0.0f));
  store(x1_ptrs, cast<T>(x1 * c - x2 * s), mask);
  store(x2_ptrs, cast<T>(x2 * c + x1 * s), mask);
}

template <class T, int BLOCK_H, int BLOCK_D>
TILECC_KERNEL(num_warps = 4)
void a2_rope(T* q, T* k, const float* cos, const float* sin, int64_t q_stride_t, int64_t q_stride_h,
             int64_t k_stride_t, int64_t k_stride_h, int64_t cs_stride, int n_qh, int n_kh, int head_dim) {
  const int64_t t = program_id(0);
  const int half_dim = head_dim / 2;
  auto d = arange<BLOCK_D>();
  auto c = row(load(cos + t * cs_stride + d, d < half_dim, 0.0f));
  auto s = row(load(sin + t * cs_stride + d, d < half_dim, 0.0f));
  rotate<T, BLOCK_H, BLOCK_D>(q + t * q_stride_t, q_stride_h, c, s, n_qh, half_dim);
  rotate<T, BLOCK_H, BLOCK_D>(k + t * k_stride_t, k_stride_h, c, s, n_kh, half_dim);
}
template void a2_rope<half, 16, 64>(half*, half*, const float*, const float*, int64_t, int64_t, int64_t, int64_t, int64_t,
                                    int, int, int);
template void a2_rope<bfloat16, 32, 64>(bfloat16*, bfloat16*, const float*, const float*, int64_t, int64_t, int64_t,
                                        int64_t, int64_t, int, int, int);
