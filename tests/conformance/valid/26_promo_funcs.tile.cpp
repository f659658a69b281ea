// Promotion through functions of several operands: where/maximum/minimum/fma with int64 scalars,
// fma on integer tiles (wraps), multiple_of on int64 scalars.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void promo_funcs(const int* x, int64_t* o64, int* o32, int64_t big, int64_t stride) {
  auto i = arange<128>();
  auto v = load(x + i);
  store(o64 + i, where(i < 64, i, big) + maximum(v, big) + minimum(big, v) + fma(v, big, i));
  store(o32 + i, fma(v, 3, i) + fma(2, v, 7));
  const int64_t s = multiple_of(stride * 16, 16);
  store(o64 + 128 + i, cast<int64_t>(i) * s);
}
