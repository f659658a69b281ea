// Misuse: rank above 3
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  tile<float, 2, 2, 2, 2> t;  // expect-error: tile_rank_is_1_to_3
}
