// Math functions, where/maximum/minimum/fma with scalars in every position, casts, pow, round.
#include <tilecc/tile.hpp>
#include <cmath>
using namespace tilecc;

// Every math function on a float tile.
TILECC_KERNEL(num_warps = 4)
void math_float(const float* x, float* out, int n) {
  auto i = program_id(0) * 512 + arange<512>();
  auto m = i < n;
  auto v = load(x + i, m, 1.0f);
  auto a = abs(v) + exp(v) + exp2(v) + log(abs(v) + 1.0f) + log2(abs(v) + 1.0f) + sqrt(abs(v)) + rsqrt(abs(v) + 1.0f);
  auto b = sin(v) + cos(v) + tanh(v) + erf(v) + sigmoid(v) + floor(v) + ceil(v) + round(v);
  auto c = pow(abs(v), 1.5f) + pow(2.0f, v) + pow(abs(v), v) + fma(v, v, 1.0f);
  store(out + i, a + b + c, m);
}

// Math on half and bfloat16 tiles (compute in float, round back).
template <class T>
TILECC_KERNEL(num_warps = 4)
void math_low(const T* x, T* out, int n) {
  auto i = program_id(0) * 256 + arange<256>();
  auto m = i < n;
  auto v = load(x + i, m, 1.0f);
  auto r = exp(v) + sqrt(abs(v)) + tanh(v) * 2.0f - round(v) + pow(abs(v), 2.0f) + fma(v, v, v) + sigmoid(v) + erf(v);
  auto s = maximum(r, 0.0f) + minimum(v, r) - v / 2.0f;
  store(out + i, s, m);
}
template void math_low<half>(const half*, half*, int);
template void math_low<bfloat16>(const bfloat16*, bfloat16*, int);

// where/maximum/minimum/fma with scalars in any operand position, scalar bool mask.
TILECC_KERNEL(num_warps = 4)
void where_scalars(const float* x, float* out, int n, bool flag, float lo) {
  auto i = arange<128>();
  auto m = i < n;
  auto v = load(x + i, m, 0.0f);
  auto a = where(m, v, 0.0f) + where(m, -1.0f, v) + where(v > 0.0f, 1.0f, -1.0f) + where(flag, v, lo);
  auto b = maximum(lo, v) + minimum(v, 3.0f) + maximum(1.0f, minimum(2.0f, v));
  auto c = fma(2.0f, v, lo) + fma(v, 3.0f, v) + fma(lo, lo, v);
  auto iw = where(m, i, -1) + where(m, 7, i);        // int tiles
  store(out + i, a + b + c + cast<float>(iw), m);
}

// where choosing between pointer tiles and a pointer scalar.
TILECC_KERNEL(num_warps = 4)
void where_ptrs(const float* x, const float* fallback, float* out, int n) {
  auto i = arange<128>();
  auto ptrs = where(i < n, x + i, fallback);
  store(out + i, load(ptrs));
}

// cast between element types, scalar cast, float -> int saturation.
TILECC_KERNEL(num_warps = 4)
void casts(const float* x, int8_t* o8, uint8_t* ou8, int* oi, uint32_t* ou, int64_t* o64, half* oh, bfloat16* ob,
           float* of, bool* obool) {
  auto i = arange<64>();
  auto v = load(x + i);
  store(o8 + i, cast<int8_t>(v));
  store(ou8 + i, cast<uint8_t>(v));
  store(oi + i, cast<int>(v));
  store(ou + i, cast<uint32_t>(v));
  store(o64 + i, cast<int64_t>(v));
  auto h = cast<half>(v);
  store(oh + i, h);
  store(ob + i, cast<bfloat16>(h));
  auto back = cast<float>(cast<bfloat16>(h)) + cast<float>(cast<int8_t>(i)) + cast<float>(v > 0.0f) + cast<float>(3);
  store(of + i, back + cast<float>(cast<uint32_t>(i)) + cast<float>(cast<int64_t>(i)));
  store(obool + i, cast<bool>(i & 1));
}

// Scalar math from <cmath> mixed with tiles; double literals are float; half scalars convert.
TILECC_KERNEL(num_warps = 4)
void scalar_math(const float* x, float* out, float s, const half* hs) {
  auto i = arange<128>();
  const float e = std::exp(s) + std::sqrt(std::fabs(s)) + std::round(s) + std::pow(s, 2.0f);
  const float h = static_cast<float>(load(hs));
  const half h2 = half(h * 2.0f);
  auto v = load(x + i) * 0.5 + e + h + static_cast<float>(h2);
  store(out + i, v);
}
