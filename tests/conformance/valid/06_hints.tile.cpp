// Hints (multiple_of on scalars, tiles, pointers; max_contiguous) and parameter promises.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void hinted_copy(TILECC_ALIGNED(16) const float* x, TILECC_ALIGNED(16) float* y, TILECC_MULTIPLE_OF(16) int ld,
                 int rows) {
  const int r0 = multiple_of(program_id(0) * 16, 16);
  auto r = r0 + arange<16>();
  auto c = max_contiguous(multiple_of(arange<64>(), 1), 64);
  auto xp = multiple_of(x, 16);
  auto offs = multiple_of(col(r) * ld, 16) + row(c);
  store(y + offs, load(xp + offs, col(r) < rows, 0.0f), col(r) < rows);
}

// int64_t stride with a MULTIPLE_OF promise, half pointers ALIGNED(16), unsigned parameter.
TILECC_KERNEL(num_warps = 8)
void hinted_half(TILECC_ALIGNED(16) const half* x, TILECC_ALIGNED(16) half* y, TILECC_MULTIPLE_OF(8) int64_t ld,
                 unsigned n) {
  const int64_t r = program_id(0);
  auto c = max_contiguous(arange<128>(), 8);
  auto m = c < n;
  store(y + r * ld + c, load(x + r * ld + c, m), m);
}
