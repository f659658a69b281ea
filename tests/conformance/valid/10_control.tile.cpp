// Control flow: nested loops, decreasing/strided loops, if/else, early returns in kernels and helpers,
// helpers (templates deducing extents, reference in-out parameters), const/constexpr locals.
#include <tilecc/tile.hpp>
#include <cassert>
using namespace tilecc;

template <int N>
tile<float, N> gelu(tile<float, N> x) { return 0.5f * x * (1.0f + erf(x * 0.70710678f)); }

// A helper with several returns (not in a loop).
template <int N>
tile<float, N> activate(tile<float, N> x, int kind) {
  if (kind == 0) return x;
  if (kind == 1) return maximum(x, 0.0f);
  return gelu(x);
}

// A helper with an early return of a scalar.
inline float clampf(float v, float lo, float hi) {
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}

// A helper with in-out reference parameters (non-const refs), returning only at its end.
template <int N>
void accumulate(tile<float, N>& acc, float& total, const tile<float, N>& v) {
  acc += v;
  total += sum(v);
}

// A helper deducing a rank-2 shape.
template <int M, int N>
tile<float, M> row_norm(const tile<float, M, N>& t) { return sqrt(sum<1>(t * t)); }

TILECC_KERNEL(num_warps = 4)
void helpers(const float* x, float* y, int n, int kind, float lo, float hi) {
  auto i = program_id(0) * 128 + arange<128>();
  if (program_id(0) * 128 >= n) return;       // early return in the kernel
  auto v = load(x + i, i < n, 0.0f);
  const float s = clampf(sum(v), lo, hi);
  store(y + i, activate(v, kind) + s, i < n);
}

TILECC_KERNEL(num_warps = 4)
void nested_loops(const float* x, float* y, int rows, int cols, float* norms) {
  auto acc = zeros<float, 64>();
  float total = 0.0f;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; c += 64) {
      auto cc = c + arange<64>();
      auto v = load(x + r * cols + cc, cc < cols, 0.0f);
      if (r % 2 == 0) {
        accumulate(acc, total, v);
      } else {
        acc -= v;
      }
    }
  }
  store(y + arange<64>(), acc + total);
  auto t = load(x + col(arange<16>()) * 32 + row(arange<32>()));
  store(norms + arange<16>(), row_norm(t));
}

// Decreasing loop, step from a parameter, <= and != bounds, int64_t induction variable.
TILECC_KERNEL(num_warps = 2)
void loop_forms(const int* x, int* y, int n, int step) {
  auto acc = zeros<int, 64>();
  for (int i = n - 1; i >= 0; --i) acc += load(x + i * 64 + arange<64>());
  for (int i = 0; i <= n - 1; i += step) acc += 1;
  for (int64_t i = 0; i != int64_t(n); i = i + 1) acc ^= cast<int>(i);
  for (int i = n; i > 0; i -= 2) acc -= 1;
  store(y + arange<64>(), acc);
}

// Early return inside a loop of a kernel; constexpr and const locals; assert on a scalar.
TILECC_KERNEL(num_warps = 4)
void early_exit_loop(const float* x, float* y, int n, float limit) {
  constexpr int BLOCK = 256;
  const auto lanes = arange<BLOCK>();
  assert(n >= 0);
  float running = 0.0f;
  for (int c = 0; c < n; c += BLOCK) {
    auto cc = c + lanes;
    auto v = load(x + cc, cc < n, 0.0f);
    running += sum(v);
    if (running > limit) {
      store(y, running);
      return;
    }
    store(y + 1 + cc, v * 2.0f, cc < n);
  }
  store(y, -running);
}

// Tile carried across a loop whose value changes type-consistently inside an if/else; a loop with zero trips.
TILECC_KERNEL(num_warps = 4)
void carried_if(const float* x, float* y, int n, int mode) {
  auto best = full<float, 128>(-INFINITY);
  auto arg = zeros<int, 128>();
  for (int k = 0; k < n; ++k) {
    auto v = load(x + k * 128 + arange<128>());
    if (mode > 0) {
      arg = where(v > best, k, arg);
      best = maximum(best, v);
    } else {
      best = maximum(best, -v);
    }
  }
  store(y + arange<128>(), best + cast<float>(arg));
}
