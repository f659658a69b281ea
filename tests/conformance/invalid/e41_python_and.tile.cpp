// Python's "and" between masks (C++'s alternative token for &&).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out, int n, int lo) {
  auto offs = program_id(0) * 256 + arange<256>();
  auto mask = offs < n and offs >= lo;  // HERE
  store(out + offs, load(x + offs, mask), mask);
}
