// §4 Integer promotion (contract v1): integer tiles of different widths promote to the wider
// type; an integer tile with a 64-bit integer scalar becomes a tile<int64_t>; for every binary
// operator, compound assignment, comparison, where, maximum, minimum, fma and pointer arithmetic.
// The values are chosen so that 32-bit arithmetic (v0) would give different results.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

#include <cstdint>

using namespace tilecc;

namespace {

template <class T, int N>
tile<T, N> make(const T (&v)[N]) {
  tile<T, N> t;
  for (int i = 0; i < N; ++i) t.data[i] = v[i];
  return t;
}

constexpr int64_t big = int64_t{1} << 40;  // needs 64 bits

// Checks `op(a, b)` elementwise against the same operator on int64_t scalars (plain C++) and
// that its element type is R. Values stay clear of overflow, zero divisors and wide shifts.
template <class R, class Op, class A, class B>
void check_op(Op op, const A& a, const B& b) {
  auto r = op(a, b);
  static_assert(std::is_same_v<typename decltype(r)::element_type, R>);
  for (int i = 0; i < decltype(r)::size; ++i) {
    const int64_t x = [&] {
      if constexpr (tile_value<A>) return static_cast<int64_t>(a.data[i]);
      else return static_cast<int64_t>(a);
    }();
    const int64_t y = [&] {
      if constexpr (tile_value<B>) return static_cast<int64_t>(b.data[i]);
      else return static_cast<int64_t>(b);
    }();
    CAPTURE(i);
    CHECK(static_cast<int64_t>(r.data[i]) == static_cast<int64_t>(op(x, y)));
  }
}

// Every binary operator with int-vs-int64 operands in the given order.
template <class A, class B>
void check_every_operator(const A& a, const B& b) {
  check_op<int64_t>([](auto x, auto y) { return x + y; }, a, b);
  check_op<int64_t>([](auto x, auto y) { return x - y; }, a, b);
  check_op<int64_t>([](auto x, auto y) { return x * y; }, a, b);
  check_op<int64_t>([](auto x, auto y) { return x / y; }, a, b);
  check_op<int64_t>([](auto x, auto y) { return x % y; }, a, b);
  check_op<int64_t>([](auto x, auto y) { return x & y; }, a, b);
  check_op<int64_t>([](auto x, auto y) { return x | y; }, a, b);
  check_op<int64_t>([](auto x, auto y) { return x ^ y; }, a, b);
  check_op<bool>([](auto x, auto y) { return x == y; }, a, b);
  check_op<bool>([](auto x, auto y) { return x != y; }, a, b);
  check_op<bool>([](auto x, auto y) { return x < y; }, a, b);
  check_op<bool>([](auto x, auto y) { return x <= y; }, a, b);
  check_op<bool>([](auto x, auto y) { return x > y; }, a, b);
  check_op<bool>([](auto x, auto y) { return x >= y; }, a, b);
}

}  // namespace

TEST_CASE("promotion: tile<int> with tile<int64_t>, either order, every binary operator") {
  auto i32 = make<int, 4>({3, -7, 100, 1 << 30});
  auto i64 = make<int64_t, 4>({big + 5, -big, 3, int64_t{1} << 31});
  check_every_operator(i32, i64);
  check_every_operator(i64, i32);
  // shifts: the count tile is narrower, the result is 64-bit (3 << 40 does not fit 32 bits)
  auto counts = make<int, 4>({40, 33, 1, 0});
  check_op<int64_t>([](auto x, auto y) { return x << y; }, make<int64_t, 4>({3, 1, -5, 9}), counts);
  check_op<int64_t>([](auto x, auto y) { return x << y; }, make<int, 4>({3, 1, -5, 9}), make<int64_t, 4>({40, 33, 1, 0}));
  check_op<int64_t>([](auto x, auto y) { return x >> y; }, make<int64_t, 4>({big, -big, 7, 9}), counts);
  check_op<int64_t>([](auto x, auto y) { return x >> y; }, make<int, 4>({-1, 1 << 30, 7, 9}), make<int64_t, 4>({40, 2, 1, 0}));
}

TEST_CASE("promotion: tile<int> with an int64_t scalar, either order, every binary operator") {
  auto i32 = make<int, 4>({3, -7, 100, 1 << 30});
  check_every_operator(i32, (int64_t{1} << 32) + 3);  // products stay below 2^63
  check_every_operator(-(int64_t{1} << 32), i32);
  check_op<int64_t>([](auto x, auto y) { return x << y; }, make<int, 4>({3, 1, -5, 9}), int64_t{35});
  check_op<int64_t>([](auto x, auto y) { return x >> y; }, big, make<int, 4>({40, 33, 1, 0}));
  // long long and size_t-like scalars are 64-bit too
  static_assert(std::is_same_v<decltype(arange<4>() + 1LL), tile<int64_t, 4>>);
  static_assert(std::is_same_v<decltype(arange<4>() * sizeof(float)), tile<int64_t, 4>>);
}

TEST_CASE("promotion: narrower pairs and the scalars that do not widen") {
  // tile ⊕ tile of different widths: the wider type
  static_assert(std::is_same_v<decltype(zeros<int8_t, 4>() + zeros<int, 4>()), tile<int, 4>>);
  static_assert(std::is_same_v<decltype(zeros<uint8_t, 4>() * zeros<uint32_t, 4>()), tile<uint32_t, 4>>);
  static_assert(std::is_same_v<decltype(zeros<int8_t, 4>() - zeros<uint32_t, 4>()), tile<uint32_t, 4>>);
  static_assert(std::is_same_v<decltype(zeros<uint32_t, 4>() + zeros<int64_t, 4>()), tile<int64_t, 4>>);
  auto w = full<int8_t, 2>(int8_t{-100}) + full<int, 2>(1000);  // computed in int: no int8 wrap
  CHECK(w(0) == 900);
  auto u = full<uint8_t, 2>(uint8_t{200}) + zeros<uint32_t, 2>();
  CHECK(u(1) == 200u);
  // Scalars narrower than 64 bits are int in kernel code and convert to the tile's type.
  static_assert(std::is_same_v<decltype(full<int8_t, 4>(int8_t{1}) * 2), tile<int8_t, 4>>);
  static_assert(std::is_same_v<decltype(full<uint32_t, 4>(1u) + 1), tile<uint32_t, 4>>);
  static_assert(std::is_same_v<decltype(zeros<int64_t, 4>() + 1), tile<int64_t, 4>>);
  CHECK((full<int8_t, 2>(int8_t{100}) + 100)(0) == -56);  // wraps in int8_t, as v0
  // Same width, different signedness: no promotion (which should win is a guess).
  static_assert(!tile_element_types_match<tile<int, 4>, tile<uint32_t, 4>>);
  static_assert(!tile_element_types_match<tile<int8_t, 4>, tile<uint8_t, 4>>);
  static_assert(tile_element_types_match<tile<int8_t, 4>, tile<uint32_t, 4>>);
  // Floating tiles do not promote; bool is not an integer element.
  static_assert(!tile_element_types_match<tile<float, 4>, tile<half, 4>>);
  static_assert(!tile_element_types_match<tile<bool, 4>, tile<int, 4>>);
  static_assert(!tile_element_types_match<tile<int, 4>, tile<float, 4>>);
  // An integer tile with a floating scalar is float, whatever the integer's width.
  static_assert(std::is_same_v<decltype(zeros<int64_t, 4>() * 0.5f), tile<float, 4>>);
}

TEST_CASE("promotion: broadcasting with promotion, three operands") {
  auto r = col(arange<2>()) * int64_t{1} << 32 | row(make<int64_t, 4>({0, 1, 2, 3}));
  static_assert(std::is_same_v<decltype(r), tile<int64_t, 2, 4>>);
  CHECK(r(1, 3) == (int64_t{1} << 32 | 3));
  auto f = fma(arange<4>(), big, arange<4>());  // i * 2^40 + i
  static_assert(std::is_same_v<decltype(f), tile<int64_t, 4>>);
  CHECK(f(3) == 3 * big + 3);
  auto g = fma(zeros<int8_t, 4>() + int8_t{3}, arange<4>(), cast<int64_t>(arange<4>()));
  static_assert(std::is_same_v<decltype(g), tile<int64_t, 4>>);
  CHECK(g(2) == 3 * 2 + 2);
}

TEST_CASE("promotion: where, maximum, minimum") {
  auto i = arange<4>();
  auto w = where(i < 2, i, big);
  static_assert(std::is_same_v<decltype(w), tile<int64_t, 4>>);
  CHECK(w(1) == 1);
  CHECK(w(3) == big);
  auto w2 = where(i < 2, cast<int64_t>(i) * big, i);
  static_assert(std::is_same_v<decltype(w2), tile<int64_t, 4>>);
  CHECK(w2(1) == big);
  CHECK(w2(2) == 2);
  auto w3 = where(i < 2, zeros<int8_t, 4>(), i);  // int8 and int: int
  static_assert(std::is_same_v<decltype(w3), tile<int, 4>>);
  auto mx = maximum(i, big);
  static_assert(std::is_same_v<decltype(mx), tile<int64_t, 4>>);
  CHECK(mx(0) == big);
  auto mn = minimum(-big, i);
  CHECK(mn(3) == -big);
  auto mx2 = maximum(make<int, 2>({5, -5}), make<int64_t, 2>({-big, big}));
  CHECK(mx2(0) == 5);
  CHECK(mx2(1) == big);
  auto mn2 = minimum(zeros<uint8_t, 2>() + uint8_t{7}, make<uint32_t, 2>({3u, 4000000000u}));
  static_assert(std::is_same_v<decltype(mn2), tile<uint32_t, 2>>);
  CHECK(mn2(0) == 3u);
  CHECK(mn2(1) == 7u);
}

TEST_CASE("promotion: compound assignments keep the left side's type") {
  auto acc = zeros<int64_t, 4>();
  acc += arange<4>();            // int64 += int: int64 (keeps the type)
  acc *= big;                    // int64 *= int64 scalar
  acc -= zeros<int8_t, 4>() + int8_t{1};
  CHECK(acc(3) == 3 * big - 1);
  auto i = arange<4>();
  i += zeros<int8_t, 4>() + int8_t{2};  // int += int8: int
  i <<= 1;
  CHECK(i(3) == 10);
  auto b = full<int8_t, 4>(int8_t{1});
  b += 1;  // int8 += int literal: the literal does not widen
  CHECK(b(0) == 2);
  // tile<int> += int64_t would widen the tile: the rule rejects it (misuse/compound_int64.cpp).
  static_assert(!compound_assignment_keeps_type<decltype(arange<4>() + big), tile<int, 4>>);
  static_assert(!compound_assignment_keeps_type<decltype(zeros<int8_t, 4>() + arange<4>()), tile<int8_t, 4>>);
}

TEST_CASE("promotion: pointer arithmetic with 64-bit offsets") {
  float storage[8] = {};
  float* base = storage;
  const auto addr = [&](int64_t elements) {
    return reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(elements) * sizeof(float);
  };
  // Offsets past 2^31 elements (never dereferenced): computed in 64 bits, no wrap.
  const int64_t stride = int64_t{1} << 31;
  auto p = base + arange<4>() * stride;  // tile<int> * int64 -> tile<int64_t> offsets
  static_assert(std::is_same_v<decltype(arange<4>() * stride), tile<int64_t, 4>>);
  static_assert(std::is_same_v<decltype(p), tile<float*, 4>>);
  CHECK(reinterpret_cast<std::uintptr_t>(p(3)) == addr(3 * stride));
  auto q = base + make<int64_t, 2>({big, -3});  // pointer + tile<int64_t>
  CHECK(reinterpret_cast<std::uintptr_t>(q(0)) == addr(big));
  auto r = (base + arange<4>()) + big;  // pointer tile + int64 scalar
  CHECK(reinterpret_cast<std::uintptr_t>(r(1)) == addr(big + 1));
  auto s = big + (base + arange<4>());  // int64 scalar + pointer tile
  CHECK(reinterpret_cast<std::uintptr_t>(s(2)) == addr(big + 2));
  auto t = r - big;  // pointer tile - int64 scalar: back to base + i
  CHECK(t(3) == base + 3);
  auto u = base + arange<4>();
  u += big;
  u -= make<int64_t, 4>({big, big, big, big});
  CHECK(u(2) == base + 2);
  // v0 evaluated row * stride + arange in 32 bits when stride was a scalar int64 and the
  // pointer came last; now the offsets tile is 64-bit whatever the order.
  auto offs = 3 * stride + arange<4>();
  static_assert(std::is_same_v<decltype(offs), tile<int64_t, 4>>);
  CHECK(reinterpret_cast<std::uintptr_t>((base + offs)(1)) == addr(3 * stride + 1));
}
