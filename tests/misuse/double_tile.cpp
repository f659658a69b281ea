// Misuse: a tile of double
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  tile<double, 4> t;  // expect-error: tile_element_type
}
