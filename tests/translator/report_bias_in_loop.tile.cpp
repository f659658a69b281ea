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

// A dequantisation scale tile read in a K loop where the unpacked int4 weights lie (16 bytes per
// access either way): no conversion through shared memory every iteration.
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void w4_dot(const half* a, const uint8_t* qw, const half* scales, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 64) {
    auto kk = k + arange<64>();
    auto at = load(a + col(rm) * K + row(kk), col(rm < M) & row(kk < K), 0.0f);
    auto nib = (cast<int>(load(qw + col(kk / 2) * N + row(rn), col(kk < K) & row(rn < N), uint8_t{0})) >> col((kk & 1) * 4)) & 15;
    auto s = load(scales + col(kk / 64) * N + row(rn), col(kk < K) & row(rn < N), 0.0f);
    acc = dot(at, cast<half>(cast<float>(nib - 8) * cast<float>(s)), acc);
  }
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
// CHECK-LABEL: kernel w4_dot_aligned (w4_dot)
// CHECK: load at line 39: 8 x f16 = 16 bytes per access
// CHECK-NOT: layout conversion at line 39
// CHECK: dots:
