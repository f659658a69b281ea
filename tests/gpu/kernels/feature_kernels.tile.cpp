// Kernels that exercise the language beyond the samples; tests/gpu/gpu_features.cpp runs each
// on the GPU and in the host twin on the same random inputs and compares.
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// Integer semantics: division/remainder by zero and negative operands, shifts out of range,
// wrapping 8-bit arithmetic, 64-bit values, bitwise ops, comparisons.
TILECC_KERNEL(num_warps = 2)
void int_ops(const int* a, const int* b, int* out, const int8_t* c, int8_t* out8, const int64_t* d, int64_t* out64) {
  auto i = arange<256>();
  auto x = load(a + i);
  auto y = load(b + i);
  store(out + i, x / y);
  store(out + 256 + i, x % y);
  store(out + 512 + i, (x << (y & 63)) ^ (x >> (y & 63)));
  store(out + 768 + i, where(x > y, x & y, x | y) + abs(x) - (~y));
  auto c8 = load(c + i);
  store(out8 + i, c8 * c8 + c8 / cast<int8_t>(y) - (c8 >> 2));
  auto d64 = load(d + i);
  store(out64 + i, d64 * 3 + cast<int64_t>(x) / 7 - (d64 % cast<int64_t>(y)));
}

// Floating point: half arithmetic, math functions, casts with saturation and NaN, NaN-ignoring
// maximum/minimum, fma with scalars, bf16 rounding.
TILECC_KERNEL(num_warps = 4)
void float_ops(const float* x, const half* h, float* out, half* hout, int* iout, bfloat16* bout, uint8_t* u8out) {
  auto i = arange<512>();
  auto v = load(x + i);
  auto hv = load(h + i);
  store(hout + i, hv * hv + cast<half>(v) - abs(hv));
  store(out + i, exp(v * 0.25f) + log(abs(v) + 1.0f) + sqrt(abs(v)) + rsqrt(abs(v) + 0.5f));
  store(out + 512 + i, sigmoid(v) + tanh(v) + erf(v) + sin(v) * cos(v) + exp2(v * 0.1f) - log2(abs(v) + 2.0f));
  store(out + 1024 + i, floor(v * 3.0f) + ceil(v * 3.0f) + fma(v, 2.0f, 1.0f) + fma(0.5f, v, v));
  store(out + 1536 + i, maximum(v, 0.0f) + minimum(v, -0.5f) + maximum(v * 1e30f * 1e30f, v));
  store(iout + i, cast<int>(v * 1e9f));
  store(u8out + i, cast<uint8_t>(v * 100.0f));
  store(bout + i, cast<bfloat16>(v * 3.3f));
}

// Reductions along each axis of rank-2 and rank-3 tiles, with argmax/argmin ties.
TILECC_KERNEL(num_warps = 4)
void reductions(const float* x, const half* h, const int8_t* c, float* out, int* iout) {
  auto r = col(arange<64>());
  auto k = row(arange<32>());
  auto t = load(x + r * 32 + k);
  auto ht = load(h + r * 32 + k);
  auto ct = load(c + r * 32 + k);
  store(out + arange<64>(), sum<1>(t));
  store(out + 64 + arange<32>(), max<0>(t));
  store(out + 96 + arange<32>(), min<0>(t) + sum<0>(ht));
  store(out + 128 + arange<64>(), cast<float>(max<1>(ht)));
  store(iout + arange<64>(), argmax<1>(t));
  store(iout + 64 + arange<32>(), argmin<0>(t));
  store(iout + 96 + arange<32>(), argmax<0>(cast<int>(ct)));  // many ties
  store(iout + 128 + arange<32>(), sum<0>(ct));
  auto t3 = reshape<8, 8, 32>(t);
  store(out + 192 + arange<64>(), reshape<64>(sum<2>(t3)));
  store(out + 256 + arange<256>(), reshape<256>(max<1>(t3)));
  store(out + 512, sum(sum<0>(t)));
  store(iout + 160, argmax(reshape<2048>(ct)));
}

// Shapes: non-square transposes, reshape, broadcast_to, expand_dims on rank 3.
TILECC_KERNEL(num_warps = 4)
void shapes(const float* x, float* out) {
  auto t = load(x + col(arange<32>()) * 64 + row(arange<64>()));  // 32 x 64
  auto tt = trans(t);                                              // 64 x 32
  store(out + col(arange<64>()) * 32 + row(arange<32>()), tt * 2.0f);
  auto flat = reshape<2048>(t);
  store(out + 2048 + arange<2048>(), flat + 1.0f);
  auto b = broadcast_to<4, 64>(load(x + arange<64>()));
  store(out + 4096 + col(arange<4>()) * 64 + row(arange<64>()), b + cast<float>(col(arange<4>())));
  auto e = expand_dims<0>(t);  // 1 x 32 x 64
  auto s = sum<0>(e + e);
  store(out + 4352 + col(arange<32>()) * 64 + row(arange<64>()), s);
}

template <int N>
float clamp_sum(tile<float, N> t, float hi) {
  return min(sum(t), hi);
}

// Control flow: nested loops carrying tiles and scalars, if/else inside loops, early return
// inside a loop, short-circuit && guarding a load, scalar loads/stores, program ids.
TILECC_KERNEL(num_warps = 4)
void control(const float* x, const int* lens, float* out, int rows, int stop_at) {
  const int r = program_id(0);
  const int len = load(lens + r);
  auto acc = zeros<float, 128>();
  float scalar_total = 0.0f;
  int odd = 0;
  for (int base = 0; base < len; base += 128) {
    auto cols = base + arange<128>();
    auto v = load(x + r * 1024 + cols, cols < len, 0.0f);
    if ((base / 128) % 2 == 1) {
      acc += v * 2.0f;
      odd += 1;
    } else {
      acc -= v;
    }
    for (int k = 0; k < 2; ++k) scalar_total += sum(v) * 0.5f;
    if (r == stop_at && base >= 256) {
      store(out + r, -1000.0f);
      return;
    }
  }
  const bool has_next = r + 1 < rows && load(lens + r + 1) > 0;
  const float extra = has_next ? load(x + (r + 1) * 1024) : -1.0f;
  store(out + r, clamp_sum(acc, 1e6f) + scalar_total + extra + static_cast<float>(odd) + num_programs(0));
}

// Block pointers (ragged edges), atomics returning old values, scalar atomics.
TILECC_KERNEL(num_warps = 4)
void memory(const float* a, float* b, int rows, int cols, int* hist, int* counter, float* fsum, int* olds) {
  auto src = make_block_ptr<32, 64>(a, {rows, cols}, {cols, 1}, {program_id(0) * 32, 0});
  auto dst = make_block_ptr<32, 64>(b, {rows, cols}, {cols, 1}, {program_id(0) * 32, 0});
  for (int c = 0; c < cols; c += 64) {
    store(dst, load(src) + 1.0f);
    src = advance(src, {0, 64});
    dst = advance(dst, {0, 64});
  }
  auto v = load(a + program_id(0) * 128 + arange<128>());
  auto bins = cast<int>(abs(v) * 4.0f) & 15;
  auto old = atomic_add(hist + bins, 1);
  store(olds + program_id(0) * 128 + arange<128>(), cast<int>(old >= 0));
  atomic_add(fsum + (arange<128>() & 3), v, arange<128>() < 64);
  const int ticket = atomic_add(counter, 1);
  store(olds + 100000 + program_id(0), cast<int>(ticket >= 0));
}

// Selects in a loop with masks of index tiles, which version-masks skips where a uniform test
// proves them true: ragged edges, a band (rows >= 2 cols - 3), indices that wrap (cols + shift
// with shift near INT32_MAX), an unsigned comparison (cols - 40 wraps when cols < 40), a mask
// shared with a load, and a select on data. `edge` compares with shift + arange (rewritten to
// compare the arange where no index wraps: shift near INT32_MAX takes the other region) and
// compares an arange with values near INT32_MIN (the printer's clamped index_relative).
TILECC_KERNEL(num_warps = 4)
void masked_loop(const float* x, float* out, int rows, int cols, int shift) {
  const int row0 = program_id(0) * 16;
  auto r = row0 + arange<16>();
  auto acc = zeros<float, 16>();
  for (int c = 0; c < cols; c += 32) {
    auto cc = c + arange<32>();
    auto inside = row(cc) < cols;
    auto v = load(x + col(r) * cols + row(cc), (col(r) < rows) & inside, 0.0f);
    auto band = inside & (col(r) >= row(cc) * 2 - 3);
    auto wrapped = row(cc + shift) > col(r) - 5;
    auto below = cast<uint32_t>(row(cc)) < cast<uint32_t>(cols - 40);
    acc += sum<1>(where(band, v, 0.5f)) + sum<1>(where(wrapped, v * 2.0f, -1.0f));
    acc += sum<1>(where(below, where(v > 0.0f, v, 0.125f), 0.25f));
    auto edge = (col(r) - 5 < row(shift + arange<32>())) | (row(arange<32>()) > col(r) + shift);
    acc += sum<1>(where(edge, v * 0.75f, 0.375f));
  }
  store(out + r, acc, r < rows);
}

// Version-masks distributes the user of a select over it where one choice is the user's identity
// (`x + where(m, 0, c)` runs as `where(m, y, y + c)`, y = x + 0, in the blocks where m may be
// false): in f16 and f32 tiles, for +, - and *, with the mask true, false and mixed across blocks.
TILECC_KERNEL(num_warps = 4)
void masked_identity(const half* xh, const float* xf, float* out, int rows, int cols, int start) {
  const int row0 = program_id(0) * 16;
  auto r = row0 + arange<16>();
  auto acc = zeros<float, 16>();
  for (int c = 0; c < cols; c += 32) {
    auto cc = c + arange<32>();
    auto in = (col(r) < rows) & (row(cc) < cols);
    auto m = col(r) >= start + row(cc);
    auto h = load(xh + col(r) * cols + row(cc), in, cast<half>(0.0f));
    auto f = load(xf + col(r) * cols + row(cc), in, 0.0f);
    auto hs = h + where(m, cast<half>(0.0f), cast<half>(-2.0f));
    auto hp = h * where(m, cast<half>(1.0f), cast<half>(0.5f));
    auto fs = f - where(m, 0.0f, 1.5f);
    auto fp = f * where(m, 1.0f, -3.0f);
    acc += sum<1>(cast<float>(hs) + cast<float>(hp)) + sum<1>(fs * fp);
  }
  store(out + r, acc, r < rows);
}

// A reduction over a broadcast (its register index goes through the broadcast's / and %), one
// warp: fuzz batch finding b027_k5 (the index was printed without parentheses).
TILECC_KERNEL(num_warps = 1)
void reduce_broadcast(const int* in, int64_t* out, float* fout) {
  auto x = cast<int64_t>(load(in + col(arange<16>())));
  store(out + arange<128>(), sum<0>(broadcast_to<16, 128>(x)));
  auto y = cast<float>(load(in + row(arange<8>())));
  store(fout + arange<64>(), max<1>(broadcast_to<64, 8>(y)) + sum<1>(broadcast_to<64, 8>(y)));
}

// Reductions across warps of rank-3 tiles whose partial results are indexed through an input
// register that is a sum ((reg % 2) + (reg / 2) * 2): fuzz batch finding b175_k0 (the sum went
// into % and / without parentheses, so the partials were written to and read from the wrong
// slots), and argmax along axis 0 of the same shape.
TILECC_KERNEL(num_warps = 4)
void reduce_rank3(const int8_t* in, int* out, int* idx) {
  auto offs = expand_dims<2>(col(arange<8>())) * 1024 + reshape<1, 16, 1>(arange<16>()) * 64 + reshape<1, 1, 64>(arange<64>());
  auto x = load(in + offs);
  auto i = reshape<16, 64>(arange<1024>());
  store(out + i, cast<int>(sum<0>(x)) * 3 + i);
  store(idx + i, argmax<0>(x));
}

// Signed tile arithmetic wraps (two's complement), as the contract says: the generated CUDA must
// not leave it to C++'s undefined signed overflow, which nvcc optimises on (fuzz batch seed 30,
// b004_k3: abs(x + 128) for x near INT64_MAX came out negative, `x + 128 < 0` having become
// `x < -128`). Inputs near the limits of int32 and int64.
TILECC_KERNEL(num_warps = 4)
void wrapping(const int* a, const int64_t* b, int* out, int64_t* out64) {
  auto i = arange<256>();
  auto x = load(a + i);
  auto y = load(b + i);
  store(out + i, abs(x + 1000) + (x * 3 - full<int, 256>(-7)));
  store(out + 256 + i, -(x - 1) + sum(x) + cumsum(x));
  store(out64 + i, abs(y - full<int64_t, 256>(-128)));
  store(out64 + 256 + i, -y * 5 + cast<int64_t>(x) * y);
  store(out64 + 512 + i, fma(y, full<int64_t, 256>(3), y) + max(y - 1) - min(y + 1));
}

// |MIN| is MIN (wrapping): a mask `abs(x) >= 0` is false there. ptxas took any absolute value to be
// non-negative (GPU fuzz seed 55, b016_k7: the atomics ran for x = INT_MIN), so the generated code
// computes it in a form ptxas does not see as one (tilecc::wrap_abs).
TILECC_KERNEL(num_warps = 4)
void abs_gate(const int* a, const int64_t* b, int* hits, int* flags) {
  auto i = arange<256>();
  auto x = load(a + i);
  auto y = load(b + i);
  atomic_add(hits + (i & 3), 1, abs(x) >= 0);
  atomic_add(hits + 4 + (i & 3), 1, abs(y) >= full<int64_t, 256>(0));
  store(flags + i, cast<int>(abs(x) < 0) + 2 * cast<int>(abs(y) < full<int64_t, 256>(0)));
}

// Tile atomics on 16-bit floats whose old values go unused: two consecutive elements are one
// 32-bit atomic (atomicAdd on __half2 / __nv_bfloat162) where the mask allows pairs (n even: the
// launcher's variant), one element otherwise. Small integers, so any order of additions sums
// exactly.
template <class T>
TILECC_KERNEL(num_warps = 4)
void half_atomics(const T* x, T* sum, int n) {
  auto offs = arange<256>();
  atomic_add(sum + offs, load(x + program_id(0) * 256 + offs), offs < n);
}

template void half_atomics<half>(const half*, half*, int);
template void half_atomics<bfloat16>(const bfloat16*, bfloat16*, int);

// Float atomics on global memory flush subnormal operands and sums to zero of the same sign
// (atom.add.f32; the twin does the same): lane i adds x[i] to acc[i], whose values pair every
// kind of operand with every other, and keeps the old value; the scalar form once per program.
TILECC_KERNEL(num_warps = 2)
void subnormal_atomics(const float* x, float* acc, float* old) {
  const auto i = program_id(0) * 64 + arange<64>();
  store(old + i, atomic_add(acc + i, load(x + i)));
  store(old + 128 + program_id(0), atomic_add(acc + 128 + program_id(0), load(x + 128 + program_id(0))));
}

// A helper with non-const reference parameters (in-out): the running max and sum of an online
// softmax, updated block by block through the helper and carried by the loop.
template <int B>
void online_update(tile<float, 64>& m, tile<float, 64>& l, const tile<float, 64, B>& s) {
  auto m_new = maximum(m, max<1>(s));
  l = l * exp2(m - m_new) + sum<1>(exp2(s - col(m_new)));
  m = m_new;
}

TILECC_KERNEL(num_warps = 4)
void online_stats(const float* x, float* out_m, float* out_l, int rows, int n) {
  auto r = program_id(0) * 64 + arange<64>();
  auto m = full<float, 64>(-INFINITY);
  auto l = zeros<float, 64>();
  for (int c = 0; c < n; c += 32) {
    auto cols = c + arange<32>();
    auto s = load(x + col(r) * n + row(cols), (col(r) < rows) & (row(cols) < n), -INFINITY);
    online_update<32>(m, l, s);
  }
  store(out_m + r, m, r < rows);
  store(out_l + r, l, r < rows);
}

// <cmath> scalar math beyond the basics (the contract allows any of it; CUDA's float functions on
// the GPU, the host's on the twin): each program computes from two parameters of its own.
TILECC_KERNEL(num_warps = 1)
void cmath_scalars(const float* p, float* out) {
  const int64_t base{program_id(0)};  // braces around a run-time value
  const float a = load(p + 2 * base), b = load(p + 2 * base + 1);
  float* o = out + base * 32;
  store(o + 0, std::atan2(b, a));
  store(o + 1, std::hypot(a, b));
  store(o + 2, std::log1p(std::fabs(a)));
  store(o + 3, std::expm1(b));
  store(o + 4, std::fmod(a, b));
  store(o + 5, std::copysign(2.0f, b));
  store(o + 6, std::cbrt(a));
  store(o + 7, std::asin(b * 0.5f) + std::acos(b * 0.5f) + std::atan(a));
  store(o + 8, std::sinh(b) + std::cosh(b));
  store(o + 9, std::asinh(a) + std::acosh(std::fabs(a) + 1.0f) + std::atanh(b * 0.5f));
  store(o + 10, std::erfc(a));
  store(o + 11, std::lgamma(std::fabs(a) + 0.5f) + std::tgamma(std::fabs(b) + 1.0f));
  store(o + 12, std::rint(a * 3.0f) + std::nearbyint(b * 3.0f));
  store(o + 13, std::log10(std::fabs(a) + 1.0f));
  store(o + 14, log1pf(std::fabs(b)) + atan2f(a, b) + hypotf(a, 1.0f));  // the C library's float names
  store(o + 15, (std::isnan(a) ? 1.0f : 0.0f) + (std::isinf(b) ? 2.0f : 0.0f) + (std::isfinite(a * b) ? 4.0f : 0.0f));
  tile<float, 8> acc{zeros<float, 8>()};  // a tile braced from one of its own type
  acc += int64_t{base} * 8 + cast<float>(arange<8>());
  store(o + 16 + arange<8>(), acc);
  store(o + 24, std::fdim(a, b) + fdimf(b, 0.25f));
  store(o + 25, std::remainder(a, b) + remainderf(b, 0.75f));
  store(o + 26, std::ldexp(a, 3) + scalbnf(b, -2) + std::ldexp(b, 200));  // the last is +-inf or 0
  // signbit of -0 (b < 0), never of inf * 0: that NaN's sign is the hardware's (x86: negative).
  store(o + 27, (std::signbit(a) ? 1.0f : 0.0f) + (std::signbit(std::fmin(b, 1.0f) * 0.0f) ? 2.0f : 0.0f) + (std::isnormal(b) ? 4.0f : 0.0f) +
                    (std::isnormal(b * 1e-38f) ? 8.0f : 0.0f));
  const float fa = std::isfinite(a) ? a * 3.0f : 0.5f, fb = std::isfinite(b) ? b * 3.0f : -2.5f;  // lround of NaN is unspecified
  store(o + 28, static_cast<float>(std::lround(fa) + std::llrint(fb) + lrintf(2.5f) + llroundf(-2.5f)));
}

// Tiles of pointers through shared memory (a layout conversion reads them back): a reshaped
// pointer tile, const and not, and a pointer tile carried by nested loops and loaded transposed.
TILECC_KERNEL(num_warps = 4)
void pointer_tiles(const float* x, float* y, float* z, const half* h, float* t, const int* xi, int rows, int cols, int* sums) {
  auto p2 = reshape<16, 64>(x + arange<1024>());
  store(y + col(arange<16>()) * 64 + row(arange<64>()), load(p2));
  auto q2 = reshape<16, 64>(z + arange<1024>());
  store(q2, 1.0f, col(arange<16>()) + row(arange<64>()) < 40);
  auto p = h + col(arange<32>()) * 64 + row(arange<64>());
  auto acc = zeros<float, 64, 32>();
  for (int s = 0; s < 2; ++s) {
    acc += cast<float>(load(trans(p)));
    p += 2048;
  }
  store(t + col(arange<64>()) * 32 + row(arange<32>()), acc);
  auto r = xi + arange<64>();
  int total = 0;
  for (int i = 0; i < rows; ++i) {
    for (int c = 0; c < cols; c += 64) total += sum(load(r + c, c + arange<64>() < cols, 0) & 255);
    r += cols;
  }
  store(sums, total);
}

// A helper that returns from inside its loop (lowered like a kernel's early return: a flag that
// skips the rest): the first block of a row whose maximum is above t, or n.
inline int first_block_above(const float* x, int n, float t) {
  for (int off = 0; off < n; off += 64) {
    auto v = load(x + off + arange<64>(), off + arange<64>() < n, -INFINITY);
    if (max(v) > t) return off;
  }
  return n;
}
TILECC_KERNEL(num_warps = 2)
void helper_loop_return(const float* x, int* out, int n, float t) {
  const int64_t r = program_id(0);
  store(out + r, first_block_above(x + r * n, n, t));
}
