// Misuse: storing through const pointers
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  store(cfp + arange<4>(), zeros<float, 4>());  // expect-error: writable_pointer
}
