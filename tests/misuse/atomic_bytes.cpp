// Misuse: atomic_add on int8_t
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  int8_t* p = nullptr;
  atomic_add(p + arange<4>(), 1);  // expect-error: atomic_add_element
}
