// Misuse: int tile + uint32_t tile (same width, different signedness: no promotion in v1)
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = arange<4>() + cast<uint32_t>(arange<4>());  // expect-error: tile_element_types_match
}
