// §4 Elementwise operations: operators, element types, functions, casts.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace tilecc;

template <class T, int N>
static tile<T, N> make(const T (&v)[N]) {
  tile<T, N> t;
  for (int i = 0; i < N; ++i) t.data[i] = v[i];
  return t;
}

TEST_CASE("arithmetic operators") {
  auto a = make<int, 4>({1, 2, 3, 4});
  auto b = make<int, 4>({4, 3, 2, 1});
  auto s = a + b, d = a - b, p = a * b;
  for (int i = 0; i < 4; ++i) {
    CHECK(s(i) == 5);
    CHECK(d(i) == a(i) - b(i));
    CHECK(p(i) == a(i) * b(i));
  }
  auto n = -a;
  CHECK(n(2) == -3);
  auto fl = make<float, 4>({1, 2, 3, 4}) / 4.0f;
  CHECK(fl(1) == 0.5f);
}

TEST_CASE("integer division and remainder truncate toward zero (C++ semantics)") {
  auto a = make<int, 4>({-7, 7, -7, 7});
  auto b = make<int, 4>({2, -2, -2, 2});
  auto q = a / b, r = a % b;
  CHECK(q(0) == -3);
  CHECK(q(1) == -3);
  CHECK(q(2) == 3);
  CHECK(r(0) == -1);
  CHECK(r(1) == 1);
  CHECK(r(2) == -1);
  CHECK(r(3) == 1);
}

TEST_CASE("integer division by zero gives a value, never a trap, MIN / -1 wraps") {
  auto a = make<int, 2>({5, std::numeric_limits<int>::min()});
  auto z = a / 0;
  auto m = a % 0;
  (void)z;
  (void)m;
  auto w = a / -1;
  CHECK(w(1) == std::numeric_limits<int>::min());
  CHECK((a % -1)(1) == 0);
}

TEST_CASE("integer overflow wraps") {
  auto a = full<int, 2>(std::numeric_limits<int>::max());
  CHECK((a + 1)(0) == std::numeric_limits<int>::min());
  auto b = full<int8_t, 2>(int8_t{127});
  CHECK((b + b)(0) == -2);
  CHECK((-full<int, 2>(std::numeric_limits<int>::min()))(0) == std::numeric_limits<int>::min());
}

TEST_CASE("bitwise operators and shifts") {
  auto a = make<int, 4>({0b1100, 0b1010, -8, 1});
  CHECK((a & 0b1010)(0) == 0b1000);
  CHECK((a | 0b0011)(1) == 0b1011);
  CHECK((a ^ 0b1111)(0) == 0b0011);
  CHECK((~a)(3) == -2);
  CHECK((a << 2)(3) == 4);
  CHECK((a >> 1)(2) == -4);  // arithmetic shift for signed
  auto u = full<uint32_t, 2>(0x80000000u);
  CHECK((u >> 31)(0) == 1u);
  // Shift counts outside [0, 32) clamp as PTX does: 0, or the sign for >> of a negative.
  CHECK((a << 40)(3) == 0);
  CHECK((a >> 40)(2) == -1);
  CHECK((a >> 40)(0) == 0);
}

TEST_CASE("comparisons give bool tiles, ~ and ! are logical not on bool tiles") {
  auto a = arange<4>();
  auto m = a < 2;
  static_assert(std::is_same_v<decltype(m), tile<bool, 4>>);
  CHECK(m(1));
  CHECK(!m(2));
  CHECK((a == 3)(3));
  CHECK((a != 3)(0));
  CHECK((a >= 2)(2));
  CHECK((a <= 0)(0));
  CHECK((a > 0)(1));
  auto n = ~m, n2 = !m;
  CHECK(!n(0));
  CHECK(n(3));
  CHECK(n2(3));
  CHECK(((a < 3) & (a > 0))(1));
  CHECK(((a < 1) | (a > 2))(3));
  CHECK(((a < 2) ^ true)(3));
}

TEST_CASE("compound assignments keep the tile's type") {
  auto acc = zeros<float, 4>();
  acc += 1.5f;
  acc *= 2.0f;
  acc -= full<float, 4>(1.0f);
  acc /= 2.0f;
  CHECK(acc(0) == 1.0f);
  auto i = arange<4>();
  i <<= 1;
  i %= 3;
  i |= 8;
  CHECK(i(2) == (8 | (4 % 3)));
  auto m = zeros<float, 4, 4>();
  m += row(full<float, 4>(1.0f));  // broadcast into the accumulator's shape
  CHECK(m(3, 3) == 1.0f);
}

TEST_CASE("tile with scalar: the scalar converts, except integer tile with floating scalar gives float") {
  auto i = arange<4>();
  auto f = i * 0.5f;
  static_assert(std::is_same_v<decltype(f), tile<float, 4>>);
  CHECK(f(3) == 1.5f);
  auto c = i < 1.5;  // compares in float
  CHECK(c(1));
  CHECK(!c(2));
  auto h = full<half, 2>(1.0f) + 0.5f;
  static_assert(std::is_same_v<decltype(h), tile<half, 2>>);
  CHECK(static_cast<float>(h(0)) == 1.5f);
  auto u = full<uint8_t, 2>(uint8_t{250}) + 10;  // 10 converts to uint8_t; wraps
  static_assert(std::is_same_v<decltype(u), tile<uint8_t, 2>>);
  CHECK(u(0) == 4);
}

TEST_CASE("half tiles compute in float and round to half") {
  auto a = full<half, 2>(2048.0f);
  auto b = a + 1.0f;  // 2049 is not a half: ties to even, 2048
  CHECK(static_cast<float>(b(0)) == 2048.0f);
  auto c = full<bfloat16, 2>(1.0f) * 3.0f;
  CHECK(static_cast<float>(c(0)) == 3.0f);
}

TEST_CASE("where, with scalars in any position") {
  auto a = arange<4>();
  auto w = where(a < 2, a, 10);
  CHECK(w(1) == 1);
  CHECK(w(2) == 10);
  auto s = where(a < 2, 1.0f, 0.0f);
  static_assert(std::is_same_v<decltype(s), tile<float, 4>>);
  CHECK(s(0) == 1.0f);
  auto b = where(true, a, 0);
  CHECK(b(3) == 3);
  auto bc = where(col(arange<2>()) == 0, row(arange<4>()), -1);  // [2,1] mask, [1,4] values
  static_assert(std::is_same_v<decltype(bc), tile<int, 2, 4>>);
  CHECK(bc(0, 3) == 3);
  CHECK(bc(1, 3) == -1);
}

TEST_CASE("maximum and minimum ignore NaN (fmax/fmin)") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto a = make<float, 4>({1, nan, 3, nan});
  auto b = make<float, 4>({2, 5, nan, nan});
  auto mx = maximum(a, b), mn = minimum(a, b);
  CHECK(mx(0) == 2);
  CHECK(mx(1) == 5);
  CHECK(mx(2) == 3);
  CHECK(std::isnan(mx(3)));
  CHECK(mn(0) == 1);
  CHECK(mn(1) == 5);
  CHECK(maximum(arange<4>(), 2)(0) == 2);
  CHECK(minimum(1.0f, make<float, 4>({0, 2, 3, 4}))(0) == 0.0f);
}

TEST_CASE("math functions match <cmath> in float") {
  auto x = make<float, 4>({0.25f, 1.0f, 2.5f, 4.0f});
  CHECK(exp(x)(2) == std::exp(2.5f));
  CHECK(exp2(x)(3) == 16.0f);
  // fast_exp/fast_exp2: the GPU's ex2.approx.ftz, whose subnormal results are 0.
  CHECK(fast_exp2(x)(3) == 16.0f);
  CHECK(fast_exp(x)(2) == doctest::Approx(std::exp(2.5f)));
  auto tiny = fast_exp2(full<float, 2>(-130.0f));
  CHECK(tiny(0) == 0.0f);
  CHECK(exp2(full<float, 2>(-130.0f))(0) > 0.0f);
  CHECK(fast_exp2(full<float, 2>(-126.0f))(0) == std::exp2(-126.0f));
  CHECK(log(x)(1) == 0.0f);
  CHECK(log2(x)(3) == 2.0f);
  CHECK(sqrt(x)(3) == 2.0f);
  CHECK(rsqrt(x)(0) == 2.0f);
  CHECK(sin(x)(2) == std::sin(2.5f));
  CHECK(cos(x)(2) == std::cos(2.5f));
  CHECK(tanh(x)(2) == std::tanh(2.5f));
  CHECK(erf(x)(2) == std::erf(2.5f));
  CHECK(sigmoid(x)(2) == doctest::Approx(1.0 / (1.0 + std::exp(-2.5))));
  CHECK(floor(-x)(2) == -3.0f);
  CHECK(ceil(-x)(2) == -2.0f);
  CHECK(abs(-x)(2) == 2.5f);
  CHECK(abs(make<int, 2>({-3, 3}))(0) == 3);
  auto h = exp(full<half, 2>(1.0f));
  static_assert(std::is_same_v<decltype(h), tile<half, 2>>);
  CHECK(static_cast<float>(h(0)) == static_cast<float>(half(std::exp(1.0f))));
}

TEST_CASE("fma takes scalars in any position") {
  auto x = make<float, 2>({2, 3});
  CHECK(fma(x, 2.0f, 1.0f)(1) == 7.0f);
  CHECK(fma(2.0f, x, x)(0) == 6.0f);
  CHECK(fma(1.0f, 1.0f, x)(0) == 3.0f);
}

TEST_CASE("cast: float→int truncates toward zero and saturates, NaN gives 0") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto x = make<float, 8>({2.9f, -2.9f, 3e9f, -3e9f, nan, 300.0f, -300.0f, 0.5f});
  auto i = cast<int>(x);
  CHECK(i(0) == 2);
  CHECK(i(1) == -2);
  CHECK(i(2) == std::numeric_limits<int>::max());
  CHECK(i(3) == std::numeric_limits<int>::min());
  CHECK(i(4) == 0);
  auto b = cast<int8_t>(x);
  CHECK(b(5) == 127);
  CHECK(b(6) == -128);
  auto u = cast<uint32_t>(x);
  CHECK(u(1) == 0u);
  CHECK(u(2) == 3000000000u);
  auto l = cast<int64_t>(full<float, 2>(1e30f));
  CHECK(l(0) == std::numeric_limits<int64_t>::max());
  auto bo = cast<bool>(x);
  CHECK(bo(7));
}

TEST_CASE("cast: narrowing floats round to nearest even, integers wrap") {
  auto h = cast<half>(full<float, 2>(1.0f + 0x1p-11f));
  CHECK(static_cast<float>(h(0)) == 1.0f);
  auto bf = cast<bfloat16>(full<float, 2>(1.0f + 3 * 0x1p-8f));
  CHECK(static_cast<float>(bf(0)) == 1.0f + 0x1p-6f);
  auto w = cast<int8_t>(full<int, 2>(200));
  CHECK(w(0) == -56);
  auto f = cast<float>(cast<half>(full<float, 2>(0.1f)));
  CHECK(f(0) == static_cast<float>(half(0.1f)));
  CHECK(cast<float>(3) == 3.0f);  // scalars cast too
}

TEST_CASE("pointer tiles: pointer + int tile, pointer tile + int tile, pointer tile += int") {
  float storage[16];
  float* buf = storage;
  auto p = buf + arange<4>();
  static_assert(std::is_same_v<decltype(p), tile<float*, 4>>);
  CHECK(p(3) == buf + 3);
  auto q = p + full<int64_t, 4>(2);
  CHECK(q(0) == buf + 2);
  q += 4;
  CHECK(q(1) == buf + 7);
  auto r = q - 1;
  CHECK(r(0) == buf + 5);
  const float* cbuf = buf;
  auto m = cbuf + col(arange<2>()) * 4 + row(arange<4>());
  static_assert(std::is_same_v<decltype(m), tile<const float*, 2, 4>>);
  CHECK(m(1, 2) == cbuf + 6);
}

TEST_CASE("round: half away from zero (std::round), on every floating type") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  auto x = make<float, 8>({0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 2.4999f, nan, -inf});
  auto r = round(x);
  static_assert(std::is_same_v<decltype(r), tile<float, 8>>);
  const float want[] = {1.0f, 2.0f, 3.0f, -1.0f, -3.0f, 2.0f};  // 2.5 → 3, not 2 (ties to even)
  for (int i = 0; i < 6; ++i) CHECK(r(i) == want[i]);
  CHECK(std::isnan(r(6)));
  CHECK(r(7) == -inf);
  CHECK(round(make<float, 2>({8388609.0f, -0.49999997f}))(0) == 8388609.0f);  // already integral
  CHECK(std::signbit(round(make<float, 2>({-0.25f, 0.0f}))(0)));  // -0.25 rounds to -0
  auto h = round(cast<half>(make<float, 4>({2.5f, -1.5f, 0.25f, 1000.5f})));
  static_assert(std::is_same_v<decltype(h), tile<half, 4>>);
  CHECK(static_cast<float>(h(0)) == 3.0f);
  CHECK(static_cast<float>(h(1)) == -2.0f);
  CHECK(static_cast<float>(h(2)) == 0.0f);
  CHECK(static_cast<float>(h(3)) == 1001.0f);
  auto b = round(cast<bfloat16>(make<float, 2>({-2.5f, 6.5f})));
  CHECK(static_cast<float>(b(0)) == -3.0f);
  CHECK(static_cast<float>(b(1)) == 7.0f);
}

TEST_CASE("pow: floating tiles, scalars in either position, broadcasting, half rounds back") {
  auto x = make<float, 4>({2.0f, 9.0f, 0.5f, -2.0f});
  auto p = pow(x, make<float, 4>({10.0f, 0.5f, -1.0f, 3.0f}));
  static_assert(std::is_same_v<decltype(p), tile<float, 4>>);
  CHECK(p(0) == 1024.0f);
  CHECK(p(1) == 3.0f);
  CHECK(p(2) == 2.0f);
  CHECK(p(3) == -8.0f);
  CHECK(pow(x, 2)(1) == 81.0f);         // an int scalar converts to float
  CHECK(pow(2.0, x)(0) == 4.0f);        // a double scalar is float
  CHECK(std::isnan(pow(x, 0.5f)(3)));   // negative base, fractional exponent
  CHECK(pow(x, 0.0f)(3) == 1.0f);
  auto grid = pow(col(make<float, 2>({2.0f, 3.0f})), row(make<float, 4>({0.0f, 1.0f, 2.0f, 3.0f})));
  static_assert(std::is_same_v<decltype(grid), tile<float, 2, 4>>);
  CHECK(grid(1, 3) == 27.0f);
  CHECK(grid(0, 2) == 4.0f);
  for (int i = 0; i < 4; ++i) CHECK(p(i) == std::pow(x(i), make<float, 4>({10.0f, 0.5f, -1.0f, 3.0f})(i)));
  auto h = pow(full<half, 2>(3.0f), 7.0f);  // 2187 is not a half: rounds to nearest even, 2188
  static_assert(std::is_same_v<decltype(h), tile<half, 2>>);
  CHECK(static_cast<float>(h(0)) == 2188.0f);
  auto bf = pow(2.0f, full<bfloat16, 2>(8.0f));
  static_assert(std::is_same_v<decltype(bf), tile<bfloat16, 2>>);
  CHECK(static_cast<float>(bf(1)) == 256.0f);
  // Integer tiles are cast first (the rule floating_operands; misuse/pow_on_int.cpp).
  static_assert(!floating_operands<tile<int, 4>, float>);
  static_assert(!floating_operands<tile<float, 4>, tile<half, 4>>);
  // Scalar pow is <cmath>'s: tilecc adds no overload that would make it ambiguous.
  using namespace std;
  CHECK(pow(2.0f, 3.0f) == 8.0f);
  CHECK(round(2.5) == 3.0);
}
