// Misuse: acc += that would change the type
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto acc = arange<4>();
  acc += 0.5f;  // expect-error: compound_assignment_keeps_type
}
