// Kernels for the contract-v1 additions: scans (cumsum, cumprod, scan with a combine function),
// reductions with a combine function, round and pow, with_layout, helpers that return early,
// kernel options from template parameters. tests/gpu/gpu_v1.cpp runs each on the GPU and in the
// host twin on the same random inputs and compares.
#include <cassert>
#include <tilecc/tile.hpp>
using namespace tilecc;

// A combine function as a plain function (and a function template, instantiated by scan).
inline float max_abs(float a, float b) { return std::abs(a) > std::abs(b) ? a : b; }
template <class T>
T larger(T a, T b) {
  if (a > b) return a;  // early return in a helper
  return b;
}
struct AddMod {
  int operator()(int a, int b) const { return (a + b) % 1000003; }
};

// Row-wise prefix sums of a [rows, n] matrix (one program per row), ragged n: the cumsum
// benchmark's kernel. Each program scans BLOCK columns at a time and carries the running total.
template <int BLOCK, int WARPS>
TILECC_KERNEL(num_warps = WARPS)
void row_cumsum(const float* x, float* y, int n) {
  const int64_t row = program_id(0);
  float carry = 0.0f;
  for (int start = 0; start < n; start += BLOCK) {
    auto cols = start + arange<BLOCK>();
    auto m = cols < n;
    auto v = load(x + row * n + cols, m, 0.0f);
    auto c = cumsum(v) + carry;
    store(y + row * n + cols, c, m);
    carry = carry + sum(v);
  }
}
template void row_cumsum<1024, 4>(const float*, float*, int);
template void row_cumsum<4096, 8>(const float*, float*, int);

// Scans along both axes of 2-D tiles, several element types and combine functions.
TILECC_KERNEL(num_warps = 4)
void scans_2d(const float* x, const half* h, const int* k, const int8_t* c, float* out, half* hout, int* iout) {
  auto r = col(arange<64>());
  auto q = row(arange<32>());
  auto t = load(x + r * 32 + q);
  auto ht = load(h + r * 32 + q);
  auto kt = load(k + r * 32 + q);
  auto ct = load(c + r * 32 + q);
  store(out + r * 32 + q, cumsum<1>(t));
  store(out + 2048 + r * 32 + q, cumsum<0>(t));
  store(out + 4096 + r * 32 + q, cumsum<0>(ht));  // half accumulates in float
  store(out + 6144 + r * 32 + q, cumprod<1>(t * 0.05f + 1.0f));
  store(out + 8192 + r * 32 + q, scan<0>(t, max_abs));
  store(out + 10240 + r * 32 + q, scan<1>(t, [](float a, float b) { return a > b ? a : b; }));
  store(hout + r * 32 + q, scan<1>(ht, [](half a, half b) { return float(a) > static_cast<float>(b) ? a : b; }));
  store(iout + r * 32 + q, scan<0>(kt, AddMod{}));
  store(iout + 2048 + r * 32 + q, cumsum<1>(ct));  // int8 accumulates in int
  store(iout + 4096 + r * 32 + q, scan<1>(kt, [](int a, int b) { return a != 0 ? a : b; }));  // not commutative
}

// Reductions with a combine function: custom along each axis, to a scalar, with generic lambdas
// and functions; round and pow.
TILECC_KERNEL(num_warps = 8)
void combines(const float* x, const int* k, float* out, int* iout) {
  auto r = col(arange<32>());
  auto q = row(arange<128>());
  auto t = load(x + r * 128 + q);
  auto kt = load(k + r * 128 + q);
  store(out + arange<32>(), reduce<1>(t, max_abs));
  store(out + 32 + arange<128>(), reduce<0>(t, [](auto a, auto b) { return a + b; }));
  store(out + 160, reduce(reduce<0>(t, larger<float>), [](float a, float b) { return a < b ? a : b; }));
  store(out + 192 + r * 128 + q, round(t * 7.0f) + pow(abs(t) + 0.5f, 1.5f) + pow(2.0f, t));
  store(iout + arange<128>(), reduce<0>(kt, [](int a, int b) { return b != 0 ? b : a; }));  // element order matters
  store(iout + 128 + arange<32>(), reduce<1>(kt, AddMod{}));
}

// with_layout: the same computation under user layouts, and a 2-D scan in a loop.
TILECC_KERNEL(num_warps = 4)
void layouts(const float* x, float* out, int n) {
  auto r = col(arange<64>());
  auto q = row(arange<64>());
  auto m = (r < n) & (q < n);
  auto t = with_layout<compose<spatial<4, 1>, spatial<8, 4>, repeat<2, 16>>>(load(x + r * 64 + q, m, 1.0f));
  store(out + r * 64 + q, t * 2.0f + 1.0f, m);
  auto u = with_layout<compose<spatial<1, 4>, spatial<32, 1>, repeat<2, 16>>>(t);
  store(out + 4096 + arange<64>(), sum<1>(u));
  auto acc = zeros<float, 64, 64>();
  for (int i = 0; i < 3; ++i) acc = cumsum<0>(acc + t * cast<float>(i));
  store(out + 8192 + r * 64 + q, acc, m);
}

// Helpers that return from inside loops (the loop runs on, guarded; the value is carried out).
inline int first_above(const float* x, int n, float t) {
  for (int k = 0; k < n; ++k) {
    if (load(x + k) > t) return k;
  }
  return n;
}
template <int B>
tile<float, B> sum_until_negative(const float* x, int rows) {
  auto acc = zeros<float, B>();
  for (int k = 0; k < rows; ++k) {
    auto v = load(x + k * B + arange<B>());
    if (sum(v) < 0.0f) return acc;  // rows before the first with a negative sum
    acc += v;
  }
  return acc * 2.0f;
}
inline void mark_until(int* y, int n, int stop) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i * n + j == stop) return;
      store(y + i * n + j, i + j);
    }
  store(y + n * n, -1);
}
TILECC_KERNEL(num_warps = 4)
void early_returns(const float* x, float* out, int* iout, int n, int stop) {
  store(iout + program_id(0), first_above(x, n, 1.5f));
  store(out + arange<128>(), sum_until_negative<128>(x, n));
  mark_until(iout + 8, n, stop);
}

// assert() in kernel code (built without NDEBUG here, so the checks are live): the GPU run
// passes with valid arguments, and tests/gpu/gpu_assert.cpp launches it with a bad one.
inline float reciprocal(float s) {
  assert(s != 0.0f && "scale must be nonzero");
  return 1.0f / s;
}
TILECC_KERNEL(num_warps = 4)
void checked_scale(const float* x, float* y, int n, float s) {
  assert(n >= 0);
  auto offs = program_id(0) * 256 + arange<256>();
  auto m = offs < n;
  store(y + offs, load(x + offs, m) * reciprocal(s), m);
}
