// Scans (cumsum, cumprod, scan) on each axis and type class; reduce/scan with each kind of combine function.
#include <tilecc/tile.hpp>
#include <cmath>
using namespace tilecc;

float add_f(float a, float b) { return a + b; }
template <class T>
T larger(T a, T b) { return a < b ? b : a; }
struct mul_i {
  int operator()(int a, int b) const { return a * b; }
};
// A helper the combine function calls, with an if.
inline float pick_abs_max(float a, float b) {
  if (std::fabs(a) < std::fabs(b)) return b;
  return a;
}

// cumsum/cumprod along axis 0 and 1 of a [16, 32] tile.
TILECC_KERNEL(num_warps = 4)
void scans_2d(const float* x, float* c0, float* c1, float* p0, float* p1) {
  auto idx = col(arange<16>()) * 32 + row(arange<32>());
  auto v = load(x + idx);
  store(c0 + idx, cumsum<0>(v));
  store(c1 + idx, cumsum<1>(v));
  store(p0 + idx, cumprod<0>(v));
  store(p1 + idx, cumprod<1>(v));
}

// Rank 3 scans along axis 2 and 1; int tiles.
TILECC_KERNEL(num_warps = 4)
void scans_3d(const int* x, int* a, int* b) {
  auto i = expand_dims<1>(col(arange<2>()));
  auto j = expand_dims<0>(col(arange<8>()));
  auto k = expand_dims<0>(row(arange<32>()));
  auto idx = (i * 8 + j) * 32 + k;
  auto v = load(x + idx);
  store(a + idx, cumsum<2>(v));
  store(b + idx, cumprod<1>(v));
}

// Result types: cumsum of half -> float, of bool -> int (compaction), of int8 -> int; cumprod of bfloat16 -> float.
TILECC_KERNEL(num_warps = 4)
void scan_types(const half* h, const bfloat16* bf, const int8_t* i8, const float* x, float* oh, float* ob, int* oi,
                float* compact, int n) {
  auto i = arange<256>();
  auto m = i < n;
  store(oh + i, cumsum(load(h + i, m)), m);
  store(ob + i, cumprod(load(bf + i, m, 1.0f)), m);
  auto v = load(x + i, m, 0.0f);
  auto keep = m & (v > 0.0f);
  auto slot = cumsum(keep) - 1;
  store(compact + slot, v, keep);
  store(oi + i, cumsum(load(i8 + i, m)), m);
}

// scan/reduce with: a lambda, a generic lambda, a function, a function template, a function object,
// a function calling a helper with an early return; on axes 0 and 1 and rank 1.
TILECC_KERNEL(num_warps = 4)
void combine_fns(const float* x, const int* y, float* of, int* oi) {
  auto idx = col(arange<16>()) * 64 + row(arange<64>());
  auto v = load(x + idx);
  auto w = load(y + idx);
  store(of + idx, scan<1>(v, [](float a, float b) { return a < b ? b : a; }));
  store(of + 1024 + idx, scan<0>(v, [](auto a, auto b) { return a + b; }));
  store(of + 2048 + idx, scan<1>(v, add_f));
  store(of + 3072 + arange<64>(), reduce<0>(v, larger<float>));
  store(of + 3136 + arange<16>(), reduce<1>(v, pick_abs_max));
  store(oi + idx, scan<0>(w, mul_i{}));
  store(oi + 1024 + arange<16>(), reduce<1>(w, larger<int>));
  const int total = reduce(arange<8>() + 1, [](int a, int b) { return a * b; });
  store(oi + 1040, total);
}

// Combine functions on narrow element types: int8_t with an exact signature, half max.
TILECC_KERNEL(num_warps = 2)
void combine_narrow(const int8_t* a, const half* h, int8_t* oa, half* oh) {
  auto i = arange<64>();
  store(oa + i, scan(load(a + i), [](int8_t x, int8_t y) -> int8_t { return x + y; }));
  store(oh + i, scan(load(h + i), [](half x, half y) { return static_cast<float>(x) < static_cast<float>(y) ? y : x; }));
  store(oh + 64, reduce(load(h + i), [](half x, half y) { return half(static_cast<float>(x) + static_cast<float>(y)); }));
}

// A scan in a loop with a carried scalar (prefix sum over a long row), on int64.
TILECC_KERNEL(num_warps = 4)
void prefix_i64(const int64_t* x, int64_t* y, int n) {
  int64_t carry = 0;
  for (int c = 0; c < n; c += 256) {
    auto cc = c + arange<256>();
    auto v = load(x + cc, cc < n);
    store(y + cc, cumsum(v) + carry, cc < n);
    carry += sum(v);
  }
}
