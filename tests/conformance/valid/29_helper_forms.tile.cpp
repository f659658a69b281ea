// Helper forms: auto return types, abbreviated function templates (C++20), constrained templates using the
// library's concepts, deducing element type and extents, helpers calling helpers, overloads.
#include <tilecc/tile.hpp>
#include <cmath>
using namespace tilecc;

auto twice(const auto& t) { return t * 2; }

template <class X>
  requires floating_tile<X>
auto softplus(const X& x) { return log(1.0f + exp(x)); }

template <class T, int M, int N>
tile<float, M> row_mean(const tile<T, M, N>& t) { return sum<1>(cast<float>(t)) / static_cast<float>(N); }

inline float square(float v) { return v * v; }
inline int square(int v) { return v * v; }

template <int N>
auto normalise(tile<float, N> v) -> tile<float, N> {
  const float m = sum(v) / N;
  return (v - m) * (1.0f / std::sqrt(sum((v - m) * (v - m)) / N + 1e-5f));
}

TILECC_KERNEL(num_warps = 4)
void helper_forms(const half* x, const float* f, float* y, int* z, int n) {
  auto idx = col(arange<16>()) * 64 + row(arange<64>());
  store(y + arange<16>(), row_mean(load(x + idx)));
  auto v = load(f + arange<128>());
  store(y + 16 + arange<128>(), softplus(twice(v)) + normalise(v) + square(1.5f));
  store(z + arange<128>(), twice(arange<128>()) + square(n));
}
