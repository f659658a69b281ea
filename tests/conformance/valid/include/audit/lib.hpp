// A kernel template and helpers defined in a header (contract §2: instantiated in the translated file).
#pragma once
#include <tilecc/tile.hpp>

namespace audit {
template <int N>
tilecc::tile<float, N> scale_shift(tilecc::tile<float, N> x, float a, float b) { return tilecc::fma(x, a, b); }

template <class T, int BLOCK, int W>
TILECC_KERNEL(num_warps = W)
void affine(const T* x, T* y, float a, float b, int n) {
  using namespace tilecc;
  auto i = program_id(0) * BLOCK + arange<BLOCK>();
  auto m = i < n;
  store(y + i, cast<T>(scale_shift(cast<float>(load(x + i, m)), a, b)), m);
}
}  // namespace audit
