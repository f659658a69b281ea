// out = x + y.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void add(const float* x, const float* y, float* out, int n) {
  auto offs = program_id(0) * 512 + arange<512>();
  auto mask = offs < n;
  store(out + offs, load(x + offs, mask) + load(y + offs, mask), mask);
}
