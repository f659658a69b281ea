// Triton's tl.dot accepts rank-3 (batched) operands.
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const half* a, const half* b, float* c) {
  auto i = arange<16>();
  auto offs = expand_dims<1>(col(arange<2>())) * 256 + expand_dims<0>(col(i) * 16 + row(i));  // [2, 16, 16]
  auto acc = dot(load(a + offs), load(b + offs));  // HERE
  store(c + offs, acc);
}
