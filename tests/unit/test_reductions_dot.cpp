// §4 Reductions and dot.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

#include <cmath>
#include <limits>

using namespace tilecc;

TEST_CASE("sum/max/min remove the axis, rank 1 gives a scalar") {
  auto t = col(arange<4>()) * 10 + row(arange<8>());  // t(i, j) = 10 i + j
  auto s0 = sum<0>(t);
  auto s1 = sum<1>(t);
  static_assert(std::is_same_v<decltype(s0), tile<int, 8>>);
  static_assert(std::is_same_v<decltype(s1), tile<int, 4>>);
  CHECK(s0(2) == 60 + 8);
  CHECK(s1(1) == 80 + 28);
  CHECK(max<1>(t)(3) == 37);
  CHECK(min<0>(t)(5) == 5);
  auto total = sum(arange<16>());
  static_assert(std::is_same_v<decltype(total), int>);
  CHECK(total == 120);
  CHECK(sum<0>(arange<16>()) == 120);
  auto t3 = reshape<2, 2, 4>(arange<16>());
  CHECK(sum<1>(t3)(1, 3) == 11 + 15);
}

TEST_CASE("sum accumulation types: half/bfloat16 → float, 8-bit and bool → int") {
  auto h = full<half, 1024>(1.0f);
  auto sh = sum(h);
  static_assert(std::is_same_v<decltype(sh), float>);
  CHECK(sh == 1024.0f);  // in half, 1024 + 1 would stop at 2048 but partial sums stay exact here
  auto big = full<half, 4096>(1.0f);
  CHECK(sum(big) == 4096.0f);  // half accumulation would stall at 2048
  auto b = sum(full<bfloat16, 512>(1.0f));
  CHECK(b == 512.0f);
  auto i8 = sum(full<int8_t, 64>(int8_t{100}));
  static_assert(std::is_same_v<decltype(i8), int>);
  CHECK(i8 == 6400);
  auto cnt = sum(arange<16>() < 5);
  static_assert(std::is_same_v<decltype(cnt), int>);
  CHECK(cnt == 5);
}

TEST_CASE("sum adds from the first element: a sum of -0.0s is -0.0, as on the GPU") {
  CHECK(std::signbit(sum(full<float, 8>(-0.0f))));
  CHECK(std::signbit(sum<1>(full<float, 2, 4>(-0.0f))(1)));
  CHECK(!std::signbit(sum(where(arange<8>() < 1, 0.0f, -0.0f))));  // one +0.0 among them: +0.0
  CHECK(std::signbit(sum(full<half, 4>(-0.0f))));                 // in float, then as float
}

TEST_CASE("max/min ignore NaN, all NaN gives NaN") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto t = zeros<float, 4>();
  t.data[0] = nan;
  t.data[1] = 3;
  t.data[2] = nan;
  t.data[3] = -1;
  CHECK(max(t) == 3.0f);
  CHECK(min(t) == -1.0f);
  CHECK(std::isnan(max(full<float, 4>(nan))));
  CHECK(argmax(t) == 1);
  CHECK(argmin(t) == 3);
}

TEST_CASE("argmax/argmin: the first index of the extreme value, as int") {
  auto t = zeros<int, 2, 8>();
  for (int j = 0; j < 8; ++j) {
    t(0, j) = j % 3;   // 0 1 2 0 1 2 0 1: max 2 first at 2
    t(1, j) = 5 - j % 4;  // 5 4 3 2 5 4 3 2: min 2 first at 3
  }
  auto am = argmax<1>(t);
  static_assert(std::is_same_v<decltype(am), tile<int, 2>>);
  CHECK(am(0) == 2);
  CHECK(am(1) == 0);
  CHECK(argmin<1>(t)(1) == 3);
  CHECK(argmin<0>(t)(0) == 0);
  CHECK(argmax(full<float, 4>(1.0f)) == 0);
}

TEST_CASE("dot: [M,K]·[K,N] with accumulator types, float is IEEE") {
  auto a = cast<float>(reshape<16, 16>(arange<256>() % 7));
  auto b = cast<float>(reshape<16, 16>(arange<256>() % 5));
  auto c = dot(a, b);
  static_assert(std::is_same_v<decltype(c), tile<float, 16, 16>>);
  for (int i = 0; i < 16; i += 5)
    for (int j = 0; j < 16; j += 3) {
      float ref = 0;
      for (int k = 0; k < 16; ++k) ref += a(i, k) * b(k, j);
      CHECK(c(i, j) == ref);
    }
  auto acc = dot(a, b, full<float, 16, 16>(1.0f));
  CHECK(acc(3, 4) == c(3, 4) + 1.0f);

  auto ha = cast<half>(a), hb = cast<half>(b);
  auto hc = dot(ha, hb);
  static_assert(std::is_same_v<decltype(hc), tile<float, 16, 16>>);
  CHECK(hc(7, 9) == c(7, 9));
  auto bc = dot(cast<bfloat16>(a), cast<bfloat16>(b));
  CHECK(bc(2, 2) == c(2, 2));

  auto i8 = dot(cast<int8_t>(a), cast<int8_t>(b));
  static_assert(std::is_same_v<decltype(i8), tile<int, 16, 16>>);
  CHECK(i8(5, 5) == static_cast<int>(c(5, 5)));

  auto r = dot(zeros<half, 32, 16>(), zeros<half, 16, 64>());
  static_assert(std::is_same_v<decltype(r), tile<float, 32, 64>>);
}

TEST_CASE("dot<precision::tf32> rounds inputs to TF32") {
  auto a = full<float, 16, 16>(1.0f + 0x1p-12f);  // not a TF32 value: rounds to 1
  auto b = full<float, 16, 16>(1.0f);
  CHECK(dot(a, b)(0, 0) == 16.0f * (1.0f + 0x1p-12f));
  CHECK(dot<precision::tf32>(a, b)(0, 0) == 16.0f);
  auto c = full<float, 16, 16>(1.0f + 0x1p-11f);  // a TF32 tie: away from zero
  CHECK(dot<precision::tf32>(c, b)(0, 0) == 16.0f * (1.0f + 0x1p-10f));
}
