// Misuse: tile<int> += int64_t would widen the tile (v1: rejected, not narrowed)
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto offs = arange<4>();
  offs += int64_t{1} << 40;  // expect-error: compound_assignment_keeps_type
}
