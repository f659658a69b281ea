// out = x + y over n elements, 1024 per program.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void vector_add(const float* x, const float* y, float* out, int n) {
  auto offs = program_id(0) * 1024 + arange<1024>();
  auto mask = offs < n;
  store(out + offs, load(x + offs, mask) + load(y + offs, mask), mask);
}
