// Edge forms: extent-1 axes (reduce/scan/trans), explicit tile types, pointer tiles (zeros, where, minus),
// scalar ternaries choosing tiles, constexpr globals, static_assert, a const lambda variable as combine fn.
#include <tilecc/tile.hpp>
using namespace tilecc;

constexpr int kBlock = 128;
constexpr float kScale = 0.25f;

// Reductions and scans over an axis of extent 1; trans of [1, N]; dot-free [64, 1] column tiles.
TILECC_KERNEL(num_warps = 4)
void extent_one(const float* x, float* a, float* b, float* c, float* d) {
  auto r = row(arange<64>());                    // [1, 64]
  auto v = load(x + r);                          // [1, 64]
  store(a + arange<64>(), sum<0>(v));            // reduce an extent-1 axis -> [64]
  store(b + r, cumsum<0>(v));                    // scan along an extent-1 axis
  auto t = trans(v);                             // [64, 1]
  store(c + col(arange<64>()), t * 2.0f);
  store(d + arange<1>(), sum<1>(v) + max<1>(v));  // [1] tiles
}

// Explicit tile types, tile parameters by const reference, pointer tiles declared explicitly.
template <int N>
tile<const float*, N> offset_ptrs(const float* base, const tile<int, N>& offs) { return base + offs; }

TILECC_KERNEL(num_warps = 4)
void explicit_types(const float* x, float* y, int n) {
  tile<int, kBlock> i = arange<kBlock>();
  tile<bool, kBlock> m = i < n;
  tile<const float*, kBlock> p = offset_ptrs(x, i);
  tile<float, kBlock> v = load(p, m, 0.0f);
  tile<float*, kBlock> q = y + i;
  q = q + 1;
  q = q - 1;
  store(q, v * kScale, m);
  static_assert(kBlock % 32 == 0);
}

// Null pointer tile from zeros, where between pointer tiles.
TILECC_KERNEL(num_warps = 4)
void pointer_tiles(const float* x, const float* y, float* out, int n, bool use_x) {
  auto i = arange<128>();
  auto none = zeros<const float*, 128>();
  auto p = where(use_x, x + i, y + i);
  auto q = where(i < n, p, none);
  store(out + i, load(q, i < n, -1.0f));
}

// Scalar conditional operator choosing between tiles and scalars at run time.
TILECC_KERNEL(num_warps = 4)
void ternaries(const float* x, float* y, int mode) {
  auto i = arange<128>();
  auto v = load(x + i);
  auto w = mode > 0 ? v * 2.0f : v - 1.0f;
  const float s = mode > 1 ? 3.0f : -3.0f;
  store(y + i, w + s);
}

// A combine function through a namespace-scope const variable (docs: "through a const variable
// initialised with one"), a combine function on a bool tile (logical or-scan).
inline float fmax_fn(float a, float b) { return a < b ? b : a; }
constexpr auto running_max = fmax_fn;
TILECC_KERNEL(num_warps = 4)
void lambda_var(const float* x, float* y, bool* seen) {
  auto i = arange<256>();
  auto v = load(x + i);
  store(y + i, scan(v, running_max));
  store(y + 256, reduce(v, running_max));
  store(seen + i, scan(v > 0.5f, [](bool a, bool b) { return a || b; }));
}
