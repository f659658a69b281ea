// Misuse: dot of half with bfloat16
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto c = dot(zeros<half, 16, 16>(), zeros<bfloat16, 16, 16>());  // expect-error: tile_element_types_match
}
