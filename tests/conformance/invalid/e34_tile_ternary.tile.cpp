// relu written with the conditional operator on a tile (tl.where's job).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out, int n) {
  auto offs = program_id(0) * 256 + arange<256>();
  auto v = load(x + offs, offs < n, 0.0f);
  auto y = v > 0.0f ? v : 0.0f;  // HERE
  store(out + offs, y, offs < n);
}
