// Misuse: [4,2] with [4,8]
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = zeros<float, 4, 2>() * zeros<float, 4, 8>();  // expect-error: shapes_broadcast
}
