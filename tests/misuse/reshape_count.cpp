// Misuse: reshape to a different element count
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = reshape<2, 4>(arange<4>());  // expect-error: same_element_count
}
