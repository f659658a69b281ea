// Input of driver.line_directives and driver.depfile: a kernel with a loop, a branch and a
// helper from a header, so the #line map crosses files and nests.
#include <tilecc/tile.hpp>

#include "lines_helper.hpp"
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void lines(const float* x, float* out, int n, int reps) {
  auto offs = program_id(0) * 256 + arange<256>();
  auto mask = offs < n;
  auto v = load(x + offs, mask);  // LOAD
  for (int i = 0; i < reps; ++i) {
    v = twice(v);
  }
  if (n > 1000) {
    v = v + 1.0f;
  }
  store(out + offs, v, mask);  // STORE
}
