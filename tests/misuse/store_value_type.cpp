// Misuse: storing a half tile through float pointers
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  store(fp + arange<4>(), zeros<half, 4>());  // expect-error: value_matches_pointee
}
