// program_id/num_programs on axes 0, 1, 2; cdiv; tilecc::min/max on int, int64_t and float scalars.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 1)
void grid3d(int* out, int n) {
  const int x = program_id(0), y = program_id(1), z = program_id(2);
  const int nx = num_programs(0), ny = num_programs(1), nz = num_programs(2);
  const int linear = (z * ny + y) * nx + x;
  const int blocks = cdiv(n, 32);
  const int capped = tilecc::min(linear, blocks - 1);
  const int64_t big = tilecc::max(static_cast<int64_t>(linear), int64_t(0));
  const float f = tilecc::max(1.5f, static_cast<float>(nz)) + tilecc::min(0.5f, 2.0f);
  auto i = arange<32>();
  store(out + linear * 32 + i, i + capped + cast<int>(f) + cast<int>(big - big));
}

// cdiv with int64_t operands, scalar min/max mixing in loops bounds.
TILECC_KERNEL(num_warps = 4)
void chunked(const float* x, float* y, int64_t n, int chunks) {
  const int64_t per = cdiv(n, static_cast<int64_t>(chunks));
  const int64_t start = program_id(0) * per;
  const int64_t end = tilecc::min(start + per, n);
  for (int64_t s = start; s < end; s += 128) {
    auto i = s + arange<128>();
    store(y + i, load(x + i, i < end) + 1.0f, i < end);
  }
}
