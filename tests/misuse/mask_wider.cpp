// Misuse: a mask that would broadcast the pointers
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto v = load(cfp + row(arange<4>()), zeros<bool, 4, 4>());  // expect-error: broadcasts_to_pointer_shape
}
