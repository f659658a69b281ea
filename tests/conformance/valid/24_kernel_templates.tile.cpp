// Kernel template forms: deduced explicit instantiation, default template arguments, int64_t and enum
// non-type parameters, num_stages 1 and 5 on a dot loop, warp_specialize = false literal.
#include <tilecc/tile.hpp>
using namespace tilecc;

enum class mode { copy, negate };

template <class T>
TILECC_KERNEL(num_warps = 4)
void deduced(const T* x, T* y, int n) {
  auto i = program_id(0) * 256 + arange<256>();
  store(y + i, load(x + i, i < n), i < n);
}
template void deduced(const float*, float*, int);    // T deduced
template void deduced<>(const half*, half*, int);    // empty argument list

template <int64_t STRIDE, mode M = mode::copy, int BLOCK = 128>
TILECC_KERNEL(num_warps = 4)
void nontype(const float* x, float* y) {
  auto i = cast<int64_t>(arange<BLOCK>()) * STRIDE + program_id(0);
  auto v = load(x + i);
  if constexpr (M == mode::negate) v = -v;
  store(y + i, v);
}
template void nontype<int64_t{3}>(const float*, float*);
template void nontype<5, mode::negate>(const float*, float*);
template void nontype<(int64_t{1} << 33), mode::copy, 64>(const float*, float*);

template <int S>
TILECC_KERNEL(num_warps = 4, num_stages = S, warp_specialize = false)
void gemm_stages(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto A = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto B = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(A, B, acc);
  }
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
template void gemm_stages<1>(const half*, const half*, float*, int, int, int);
template void gemm_stages<5>(const half*, const half*, float*, int, int, int);
