// Structured control flow: loops carry tiles and scalars, if/else yields, early return,
// helpers inline, if constexpr folds, block pointers lower to masked pointer tiles.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int N>
tile<float, N> twice(tile<float, N> t) {
  return t * 2.0f;
}

// CHECK-LABEL: kernel @loop_256 "loop<256>"
// CHECK: for %i = %{{.*}} lt %n step %{{.*}} iter(%[[ACC:acc[_0-9]*]] = %{{.*}}, %[[CNT:count[_0-9]*]] = %{{.*}}) -> (%{{acc[_0-9]*}}: tile<256xf32>, %{{count[_0-9]*}}: i32) {
// CHECK: load
// CHECK: binary.add %[[ACC]], %{{.*}} : tile<256xf32>
// CHECK: binary.add %[[CNT]], %{{.*}} : i32
// CHECK: yield
// CHECK: }
// CHECK: if %{{.*}} -> (%{{.*}}: f32) {
// CHECK: return
// CHECK: } else {
// CHECK: yield
template <int N>
TILECC_KERNEL()
void loop(const float* x, float* out, int n) {
  auto acc = zeros<float, N>();
  int count = 0;
  for (int i = 0; i < n; i += N) {
    auto offs = i + arange<N>();
    acc += load(x + offs, offs < n, 0.0f);
    count += 1;
  }
  float total = sum(twice(acc));
  if (count > 100) {
    store(out, -1.0f);
    return;
  } else {
    total = total + 1.0f;
  }
  if constexpr (N > 1000) store(out, 0.0f);
  store(out, total);
  store(out + 1, static_cast<float>(count));
}
template void loop<256>(const float*, float*, int);

// Only what changes is carried: the block pointer's offset and the accumulator.
// CHECK-LABEL: kernel @blocks
// CHECK: for %i = %{{.*}} lt %k step %{{.*}} iter(%bp{{[_0-9]*}} = %{{.*}}, %acc{{[_0-9]*}} = %{{.*}}) -> (%bp{{[_0-9]*}}: i64, %acc{{[_0-9]*}}: tile<16x32xf32>) {
// CHECK: binary.ge {{.*}} : tile<16x1xi1>
// CHECK: binary.lt {{.*}} : tile<16x1xi1>
// CHECK: binary.and {{.*}} : tile<16x1xi1>
// CHECK: load %{{.*}}, %{{.*}}, %{{.*}} : tile<16x32xf32>
// CHECK: binary.add {{.*}} : i64
TILECC_KERNEL()
void blocks(const float* a, float* out, int rows, int cols, int k) {
  auto bp = make_block_ptr<16, 32>(a, {rows, cols}, {cols, 1}, {0, 0});
  auto acc = zeros<float, 16, 32>();
  for (int i = 0; i < k; ++i) {
    acc += load(bp);
    bp = advance(bp, {16, 0});
  }
  store(make_block_ptr<16, 32>(out, {rows, cols}, {cols, 1}, {0, 0}), acc);
}

// Triton's `start_n = tl.multiple_of(start_n, BLOCK_N)`: assigning the induction variable a hint
// of itself keeps its value, so it is a hint on the loop variable, not a second induction; the
// loop carries only the accumulator.
// CHECK-LABEL: kernel @iv_hint
// CHECK: for %start_n = %{{.*}} lt %n step %{{.*}} iter(%acc{{[_0-9]*}} = %{{.*}}) -> (%acc{{[_0-9]*}}: tile<64xf32>) {
// CHECK: %start_n_1 = hint.multiple_of %start_n [value=64] : i32
// CHECK: addptr %x, %start_n_1
TILECC_KERNEL()
void iv_hint(const float* x, float* out, int n) {
  auto acc = zeros<float, 64>();
  for (int start_n = 0; start_n < n; start_n += 64) {
    start_n = multiple_of(start_n, 64);
    acc += load(x + start_n + arange<64>(), start_n + arange<64>() < n, 0.0f);
  }
  store(out + arange<64>(), acc);
}
