// The report lists exp2 in loops once per source line, with what keeping subnormal results costs
// and the function that does not (Triton's tl.math.exp2 is fast_exp2); exp2 outside loops and
// fast_exp2 are not listed.
// ARGS: --emit=report --arch=sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel softmax_rows
// CHECK: exp2 in loops:
// CHECK-NEXT: exp2 at line [[@LINE+9]]: keeps subnormal results (exp2f: MUFU.EX2 and three instructions per element); fast_exp2 is MUFU.EX2 alone, and what Triton's tl.math.exp2 computes on f32
// CHECK-NEXT: barriers:
TILECC_KERNEL(num_warps = 4)
void softmax_rows(const float* x, float* out, int rows) {
  auto c = arange<128>();
  auto once = exp2(load(x + c));
  store(out + c, once / sum(once));
  for (int r = 1; r < rows; ++r) {
    auto v = load(x + r * 128 + c);
    auto e = exp2(v - max(v));
    auto f = fast_exp2(v);
    store(out + r * 128 + c, e / sum(e) + f);
  }
}
