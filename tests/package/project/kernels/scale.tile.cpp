// out = SCALE_FACTOR * x. SCALE_BLOCK comes from the target's compile definitions and
// scale_helpers.hpp from its include directories.
#include <tilecc/tile.hpp>

#include "scale_helpers.hpp"
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void scale(const float* x, float* out, int n) {
  auto offs = program_id(0) * SCALE_BLOCK + arange<SCALE_BLOCK>();
  auto mask = offs < n;
  store(out + offs, scaled(load(x + offs, mask)), mask);
}
