// Misuse: a compose of parts of different ranks
#include <tilecc/tile.hpp>
using namespace tilecc;

void f(float* fp, const float* cfp) {
  (void)fp;
  (void)cfp;
  auto t = with_layout<compose<spatial<4>, spatial<2, 2>>>(arange<4>());  // expect-error: task_mapping
}
