// Scalar bool masks on tile loads/stores, literal masks, `other` as a full-shape tile, [M,1] masks.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void scalar_masks(const float* x, float* y, bool flag, int rows) {
  auto idx = col(arange<16>()) * 32 + row(arange<32>());
  auto fallback = cast<float>(idx);
  auto v = load(x + idx, flag, fallback);
  auto w = load(x + idx, true);
  store(y + idx, v + w, flag);
  store(y + 512 + idx, v, col(arange<16>() < rows));
  store(y + 1024 + idx, w, false);
}
