// §4 Creation and shape operations, and NumPy broadcasting of binary operations.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

using namespace tilecc;

TEST_CASE("arange, zeros, full") {
  auto a = arange<8>();
  static_assert(std::is_same_v<decltype(a), tile<int, 8>>);
  for (int i = 0; i < 8; ++i) CHECK(a(i) == i);
  auto z = zeros<half, 2, 4>();
  for (auto v : z.data) CHECK(v.bits == 0);
  auto f = full<int, 4>(2.9);  // converts as cast: truncates
  CHECK(f(3) == 2);
  auto p = zeros<const float*, 4>();
  CHECK(p(0) == nullptr);
}

TEST_CASE("expand_dims, col, row") {
  auto a = arange<4>();
  auto c = col(a);
  auto r = row(a);
  static_assert(std::is_same_v<decltype(c), tile<int, 4, 1>>);
  static_assert(std::is_same_v<decltype(r), tile<int, 1, 4>>);
  auto e = expand_dims<1>(c);
  static_assert(std::is_same_v<decltype(e), tile<int, 4, 1, 1>>);
  CHECK(c(2, 0) == 2);
  CHECK(r(0, 3) == 3);
}

TEST_CASE("binary operations broadcast size-1 axes") {
  auto t = col(arange<4>()) * 10 + row(arange<8>());
  static_assert(std::is_same_v<decltype(t), tile<int, 4, 8>>);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) CHECK(t(i, j) == 10 * i + j);
  auto u = expand_dims<0>(col(arange<2>())) + expand_dims<1>(row(arange<4>()));  // [1,2,1] + [1,1,4]
  static_assert(std::is_same_v<decltype(u), tile<int, 1, 2, 4>>);
  CHECK(u(0, 1, 3) == 4);
}

TEST_CASE("broadcast_to: equal rank, lower rank (right-aligned) and scalars") {
  auto b = broadcast_to<4, 8>(row(arange<8>()));
  CHECK(b(3, 5) == 5);
  auto c = broadcast_to<4, 8>(arange<8>());
  CHECK(c(2, 7) == 7);
  auto d = broadcast_to<2, 2>(1.5f);
  static_assert(std::is_same_v<decltype(d), tile<float, 2, 2>>);
  CHECK(d(1, 1) == 1.5f);
}

TEST_CASE("reshape keeps row-major order, trans swaps axes") {
  auto r = reshape<2, 4>(arange<8>());
  CHECK(r(1, 0) == 4);
  auto t = trans(r);
  static_assert(std::is_same_v<decltype(t), tile<int, 4, 2>>);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) CHECK(t(j, i) == r(i, j));
  auto back = reshape<8>(r);
  CHECK(back(7) == 7);
}
