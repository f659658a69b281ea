// Layouts: a transpose converts through shared memory once; index tiles are recomputed in
// the layout each use needs rather than converted.
// ARGS: --emit=ir-layout
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel @tr
// CHECK: #L{{[0-9]+}} = blocked{spt=[1,1] tpw=[1,32] wpc=[4,1] order=[1,0]}
// CHECK: %[[T:.*]] = load {{.*}} : tile<64x64xf32> #L[[A:[0-9]+]]
// CHECK: convert_layout %[[T]] : tile<64x64xf32> #L[[B:[0-9]+]]
// CHECK-NOT: convert_layout
// CHECK: trans {{.*}} : tile<64x64xf32> #L[[A]]
// CHECK-NOT: convert_layout
TILECC_KERNEL()
void tr(const float* x, float* y) {
  auto i = arange<64>();
  auto t = load(x + col(i) * 64 + row(i));
  store(y + col(i) * 64 + row(i), trans(t));
}
