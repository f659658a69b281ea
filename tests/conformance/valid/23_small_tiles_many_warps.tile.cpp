// Tiles smaller than the program's thread count: tiny elementwise/reduction/scan/dot tiles with many warps,
// an all-ones rank-3 tile.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int W>
TILECC_KERNEL(num_warps = W)
void tiny(const float* x, float* y, int* z) {
  auto i = arange<16>();
  auto v = load(x + i);
  store(y + i, cumsum(v) + sum(v) + max(v));
  store(y + 16 + i, scan(v, [](float a, float b) { return a * b; }));
  store(z, argmax(v) + argmin(v));
  auto one = load(x + expand_dims<0>(expand_dims<0>(arange<1>())));   // tile<float, 1, 1, 1>
  store(y + 32 + expand_dims<0>(expand_dims<0>(arange<1>())), one * 2.0f);
}
template void tiny<1>(const float*, float*, int*);
template void tiny<8>(const float*, float*, int*);
template void tiny<32>(const float*, float*, int*);

// dot 16x16x16 on 8 and 16 warps; 16x16x256 and 256x16x16 on 4 warps.
template <int M, int N, int K, int W>
TILECC_KERNEL(num_warps = W)
void small_dot(const half* a, const half* b, float* c) {
  auto A = load(a + col(arange<M>()) * K + row(arange<K>()));
  auto B = load(b + col(arange<K>()) * N + row(arange<N>()));
  auto acc = full<float, M, N>(1.0f);
  store(c + col(arange<M>()) * N + row(arange<N>()), dot(A, B, acc));
}
template void small_dot<16, 16, 16, 8>(const half*, const half*, float*);
template void small_dot<16, 16, 16, 16>(const half*, const half*, float*);
template void small_dot<16, 16, 256, 4>(const half*, const half*, float*);
template void small_dot<256, 16, 16, 4>(const half*, const half*, float*);
template void small_dot<16, 256, 16, 4>(const half*, const half*, float*);
