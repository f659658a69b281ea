// A tile loaded in a loop and added to a dot's result (an attention bias on the scores) is read
// in the dot's layout, as Triton does: 8-byte accesses instead of 16, and no round trip through
// shared memory with its two barriers every key block (user campaign 3, finding 2: 1.09x on
// the H200 at S = 8192, tests/bench/results/2026-11-29-h200-loop-forms.txt).
// ARGS: --emit=report --arch sm_80
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4, num_stages = 2)
void bias_scores(const half* q, const half* k, const float* bias, float* out, int S) {
  auto m = program_id(0) * 64 + arange<64>();
  auto d = arange<64>();
  auto qt = load(q + col(m) * 64 + row(d), col(m < S), 0.0f);
  auto acc = zeros<float, 64, 64>();
  for (int n = 0; n < S; n += 64) {
    auto kn = n + arange<64>();
    auto kt = load(k + col(kn) * 64 + row(d), col(kn < S), 0.0f);
    acc += dot(qt, trans(kt)) + load(bias + col(m) * S + row(kn), col(m < S) & row(kn < S), 0.0f);
  }
  store(out + col(m) * 64 + row(d), acc, col(m < S));
}

// CHECK-LABEL: kernel bias_scores_aligned (bias_scores)
// CHECK: load at line 18: 2 x f32 = 8 bytes per access
// CHECK-NOT: layout conversion at line 18
// CHECK: dots:
