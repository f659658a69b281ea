// Misuse: shapes that do not broadcast
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = arange<4>() + arange<8>();  // expect-error: shapes_broadcast
}
