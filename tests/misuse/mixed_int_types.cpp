// Misuse: int64 tile + int tile
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = cast<int64_t>(arange<4>()) + arange<4>();  // expect-error: tile_element_types_match
}
