// Contract v1 in the Tile IR: scans and reductions with their combine functions inlined into
// isolated regions (lambdas, generic lambdas, function objects, functions and function
// templates by name, fmaxf), cumsum of half in float, round and pow, with_layout pinning a
// layout, options from template parameters, helpers that return early (from an if: the rest
// goes into the other path; from a loop: the loop runs on guarded by the done flag).
// ARGS: --emit=ir -o -
#include <cmath>
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T>
T larger(T a, T b) {
  if (a > b) return a;
  return b;
}
struct First {
  int operator()(int a, int b) const { return a != 0 ? a : b; }
};

// CHECK-LABEL: kernel @scans_8 "scans<8>" num_warps=8 num_stages=2
// CHECK: %[[H:.*]] = load {{.*}} : tile<64xf16>
// CHECK: %[[HF:.*]] = convert %[[H]] : tile<64xf32>
// CHECK: scan.sum %[[HF]] [axis=0] : tile<64xf32>
// CHECK: scan.prod %{{.*}} [axis=0] : tile<64xf32>
// CHECK: scan.custom %{{.*}} [axis=0] : tile<64xf32> (%a, %b) {
// CHECK-NEXT: %{{.*}} = binary.gt %a, %b : i1
// CHECK-NEXT: if %{{.*}} -> (%{{.*}}: f32) {
// CHECK-NEXT: yield %a
// CHECK-NEXT: } else {
// CHECK-NEXT: yield %b
// CHECK: scan.custom %{{.*}} [axis=0] : tile<64xi32> (%a_{{[0-9]+}}, %b_{{[0-9]+}}) {
// CHECK: select
// CHECK: reduce.custom %{{.*}} [axis=0] : f32 (%{{.*}}, %{{.*}}) {
// CHECK-NEXT: %{{.*}} = binary.max %{{.*}}, %{{.*}} : f32
// CHECK: reduce.custom %{{.*}} [axis=0] : i32 (%{{.*}}, %{{.*}}) {
// CHECK-NEXT: %{{.*}} = binary.mul %{{.*}}, %{{.*}} : i32
// CHECK: unary.round
// CHECK: binary.pow
template <int W>
TILECC_KERNEL(num_warps = W, num_stages = 2)
void scans(const half* h, const float* x, const int* k, float* out, int* iout) {
  auto i = arange<64>();
  store(out + i, cumsum(load(h + i)));
  auto v = load(x + i);
  store(out + 64 + i, cumprod(v));
  store(out + 128 + i, scan(v, larger<float>));
  store(iout + i, scan(load(k + i), First{}));
  store(out + 192, reduce(v, fmaxf));
  store(iout + 64, reduce(load(k + i), [](auto a, auto b) { return a * b; }));
  store(out + 256 + i, round(v) + pow(v, 2.0f));
}
template void scans<8>(const half*, const float*, const int*, float*, int*);

// CHECK-LABEL: kernel @layouts "layouts"
// CHECK: #L0 = blocked{spt=[2,16] tpw=[8,4] wpc=[4,1] order=[1,0]}
// CHECK: hint.layout %{{.*}} [value=0] : tile<64x64xf32> #L0
TILECC_KERNEL(num_warps = 4)
void layouts(const float* x, float* out) {
  auto r = col(arange<64>());
  auto c = row(arange<64>());
  auto t = with_layout<compose<spatial<4, 1>, spatial<8, 4>, repeat<2, 16>>>(load(x + r * 64 + c));
  store(out + r * 64 + c, t);
}

inline int first_above(const float* x, int n, float t) {
  for (int k = 0; k < n; ++k) {
    if (load(x + k) > t) return k;
  }
  return n;
}
// CHECK-LABEL: kernel @early "early"
// CHECK: for %k = {{.*}} iter(%[[DONE:.*]] = %{{.*}}, %[[RET:.*]] = %{{.*}}) -> (%[[D2:.*]]: i1, %[[R2:.*]]: i32) {
// CHECK-NEXT: %[[NOT:.*]] = unary.not %[[DONE]] : i1
// CHECK-NEXT: if %[[NOT]] -> (%{{.*}}: i1, %{{.*}}: i32) {
// CHECK: load
// CHECK: if %{{.*}} -> (%{{.*}}: i1, %{{.*}}: i32) {
// CHECK-NEXT: %[[ONE:.*]] = const 1 : i1
// CHECK-NEXT: yield %[[ONE]], %k
// CHECK: } else {
// CHECK-NEXT: yield %[[DONE]], %[[RET]]
// CHECK: if %[[D2]] -> (%{{.*}}: i32) {
// CHECK-NEXT: yield %[[R2]]
// CHECK-NEXT: } else {
// CHECK-NEXT: yield %n
TILECC_KERNEL()
void early(const float* x, int* out, int n) { store(out, first_above(x, n, 0.5f)); }
