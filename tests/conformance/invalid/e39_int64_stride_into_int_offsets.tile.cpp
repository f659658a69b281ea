// Moving int offsets by a 64-bit stride with += (the tile would have to widen).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out, int64_t stride, int rows) {
  auto offs = arange<128>();
  auto acc = zeros<float, 128>();
  for (int r = 0; r < rows; ++r) {
    acc += load(x + offs);
    offs += stride;  // HERE
  }
  store(out + arange<128>(), acc);
}
