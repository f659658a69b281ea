// Second audit: GELU, tanh approximation, forward and backward (elementwise, ragged n).
#include <tilecc/tile.hpp>
using namespace tilecc;

constexpr float kSqrt2OverPi = 0.7978845608028654f;

template <int N>
tile<float, N> gelu_tanh(tile<float, N> x) {
  auto inner = kSqrt2OverPi * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + tanh(inner));
}

template <class T, int BLOCK>
TILECC_KERNEL(num_warps = 4)
void a2_gelu_fwd(const T* x_ptr, T* y_ptr, int n) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto mask = offs < n;
  auto x = cast<float>(load(x_ptr + offs, mask, 0.0f));
  store(y_ptr + offs, cast<T>(gelu_tanh(x)), mask);
}
template void a2_gelu_fwd<float, 1024>(const float*, float*, int);
template void a2_gelu_fwd<bfloat16, 2048>(const bfloat16*, bfloat16*, int);
template void a2_gelu_fwd<half, 512>(const half*, half*, int);

template <class T, int BLOCK>
TILECC_KERNEL(num_warps = 4)
void a2_gelu_bwd(const T* dy_ptr, const T* x_ptr, T* dx_ptr, int n) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto mask = offs < n;
  auto x = cast<float>(load(x_ptr + offs, mask, 0.0f));
  auto dy = cast<float>(load(dy_ptr + offs, mask, 0.0f));
  auto x2 = x * x;
  auto t = tanh(kSqrt2OverPi * x * (1.0f + 0.044715f * x2));
  auto dtanh = kSqrt2OverPi * (1.0f + 3.0f * 0.044715f * x2);
  auto grad = 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * dtanh;
  store(dx_ptr + offs, cast<T>(dy * grad), mask);
}
template void a2_gelu_bwd<float, 1024>(const float*, const float*, float*, int);
template void a2_gelu_bwd<bfloat16, 1024>(const bfloat16*, const bfloat16*, bfloat16*, int);
