// A select in a loop whose test a uniform check proves true (version-masks): the report names
// the mask only by a name the user gave it. Here the test is written twice and never named; the
// value is shared with the load's mask, whose name (`kt`) must not appear as the mask's.
// ARGS: --emit=report --arch=sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4, num_stages = 2)
void scores(const half* q, const half* k, float* out, int n) {
  auto offs_m = arange<64>();
  auto offs_d = arange<64>();
  auto offs_n = arange<64>();
  auto qt = load(q + col(offs_m) * 64 + row(offs_d));
  auto best = full<float, 64>(-INFINITY);
  for (int start = 0; start < n; start += 64) {
    auto kt = load(k + col(offs_d) + row(start + offs_n) * 64, row(start + offs_n) < n, 0.0f);
    auto s = where(row(start + offs_n) < n, dot(qt, kt), -INFINITY);
    best = maximum(best, max<1>(s));
  }
  store(out + offs_m, best);
}
// CHECK: select (line 17): its condition is true in every element: the select is skipped (a uniform test)
// CHECK-NOT: kt is true in every element
