// Loop-carried values of each kind: bool/int64/half tiles, block pointers advanced conditionally,
// dot accumulators in nested loops with an if, return inside a dot loop.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void carried_types(const float* x, bool* any, int64_t* cnt, half* h, int steps) {
  auto i = arange<128>();
  auto seen = zeros<bool, 128>();
  auto count = zeros<int64_t, 128>();
  auto hs = full<half, 128>(0.0f);
  for (int s = 0; s < steps; ++s) {
    auto v = load(x + s * 128 + i);
    seen = seen | (v > 0.5f);
    count += cast<int64_t>(v > 0.0f);
    hs = hs + cast<half>(v);
  }
  store(any + i, seen);
  store(cnt + i, count);
  store(h + i, hs);
}

// Block pointer advanced only on some iterations, block pointer from an offset base pointer.
TILECC_KERNEL(num_warps = 4)
void bp_conditional(const float* x, float* y, int rows, int cols, int64_t ld) {
  const float* base = x + program_id(0) * ld;
  auto bp = make_block_ptr<1, 128>(base, {1, cols}, {ld, 1}, {0, 0});
  auto acc = zeros<float, 1, 128>();
  for (int r = 0; r < rows; ++r) {
    acc += load(bp);
    if (r % 2 == 1) bp = advance(bp, {0, 128});
  }
  store(y + program_id(0) * 128 + row(arange<128>()), acc);
}

// Nested loops around a dot with an if; split-K style: the outer loop over chunks.
TILECC_KERNEL(num_warps = 4)
void nested_dot(const half* a, const half* b, float* c, int K, int chunks, bool skip_odd) {
  auto acc = zeros<float, 64, 64>();
  auto rm = arange<64>();
  auto rk = arange<32>();
  for (int ch = 0; ch < chunks; ++ch) {
    if (skip_odd && ch % 2 == 1) {
      acc = acc * 0.5f;
    } else {
      for (int k = ch * K; k < (ch + 1) * K; k += 32) {
        auto A = load(a + col(rm) * (K * chunks) + row(k + rk));
        auto B = load(b + col(k + rk) * 64 + row(rm));
        acc = dot(A, B, acc);
      }
    }
  }
  store(c + col(rm) * 64 + row(rm), acc);
}

// return inside a dot loop (stop when the accumulator's max passes a limit).
TILECC_KERNEL(num_warps = 4)
void dot_early_exit(const half* a, const half* b, float* c, int K, float limit) {
  auto acc = zeros<float, 32, 32>();
  auto r = arange<32>();
  for (int k = 0; k < K; k += 32) {
    acc = dot(load(a + col(r) * K + row(k + r)), load(b + col(k + r) * 32 + row(r)), acc);
    if (max(reshape<1024>(acc)) > limit) {
      store(c + col(r) * 32 + row(r), acc);
      return;
    }
  }
  store(c + col(r) * 32 + row(r), -acc);
}
