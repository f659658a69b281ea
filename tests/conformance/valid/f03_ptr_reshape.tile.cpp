// reshape of a tile of pointers (contract §3/§4: tiles of pointers; reshape keeps the element count).
// Const pointees print `const const float**`; non-const pointees read back as `const float*` into `float*`.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void ptr_reshape_const(const float* x, float* y) {
  auto p2 = reshape<16, 64>(x + arange<1024>());
  store(y + col(arange<16>()) * 64 + row(arange<64>()), load(p2));
}

TILECC_KERNEL(num_warps = 4)
void ptr_reshape_mut(float* x) {
  auto p2 = reshape<16, 64>(x + arange<1024>());
  store(p2, 1.0f);
}
