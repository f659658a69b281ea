// §3 Types: element types, half/bfloat16 rounding, shapes in the type, scalar conversions.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tilecc;

static float f(half h) { return static_cast<float>(h); }
static float f(bfloat16 h) { return static_cast<float>(h); }

TEST_CASE("half: exact values round-trip and the range ends are right") {
  for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f /*min normal*/, 5.9604645e-08f /*min subnormal*/})
    CHECK(f(half(v)) == v);
  CHECK(half(65504.0f).bits == 0x7bff);
  CHECK(half(1.0f).bits == 0x3c00);
  CHECK(half(-0.0f).bits == 0x8000);
}

TEST_CASE("half: round to nearest, ties to even") {
  CHECK(f(half(1.0f + 0x1p-11f)) == 1.0f);                      // tie, 1.0 is even
  CHECK(f(half(1.0f + 3 * 0x1p-11f)) == 1.0f + 0x1p-9f);        // tie, rounds up to even
  CHECK(f(half(1.0f + 0x1p-11f + 0x1p-20f)) == 1.0f + 0x1p-10f);  // above the tie
  CHECK(f(half(65519.0f)) == 65504.0f);                          // below the overflow tie
  CHECK(std::isinf(f(half(65520.0f))));                          // the tie overflows
  CHECK(std::isinf(f(half(1e10f))));
  CHECK(half(0x1p-25f).bits == 0);               // subnormal tie to even (0)
  CHECK(half(3 * 0x1p-25f).bits == 2);           // 1.5 units → 2 (even)
  CHECK(half(0x1p-25f + 0x1p-30f).bits == 1);    // just above half a unit
  CHECK(half(2047 * 0x1p-25f).bits == 0x400);    // rounds up into the smallest normal
}

TEST_CASE("half: infinities and NaN") {
  CHECK(half(std::numeric_limits<float>::infinity()).bits == 0x7c00);
  CHECK(half(-std::numeric_limits<float>::infinity()).bits == 0xfc00);
  CHECK(std::isnan(f(half(std::numeric_limits<float>::quiet_NaN()))));
}

TEST_CASE("bfloat16: round to nearest, ties to even, NaN stays NaN") {
  CHECK(f(bfloat16(1.0f + 0x1p-8f)) == 1.0f);              // tie to even
  CHECK(f(bfloat16(1.0f + 3 * 0x1p-8f)) == 1.0f + 0x1p-6f);  // tie up to even
  CHECK(f(bfloat16(1.0f + 0x1p-8f + 0x1p-12f)) == 1.0f + 0x1p-7f);
  CHECK(bfloat16(1.0f).bits == 0x3f80);
  CHECK(std::isnan(f(bfloat16(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(std::isinf(f(bfloat16(3.4e38f))));  // rounds past the largest finite bfloat16
}

TEST_CASE("tile: shape is part of the type, extents deduce in helpers") {
  static_assert(!std::is_same_v<tile<float, 4>, tile<float, 8>>);
  static_assert(tile<float, 2, 4, 8>::size == 64 && tile<float, 2, 4, 8>::rank == 3);
  auto extent = []<int N>(tile<float, N>) { return N; };
  CHECK(extent(zeros<float, 32>()) == 32);
}

TEST_CASE("double scalars act as float, integer scalars convert to the tile's element type unless 64-bit") {
  auto t = full<float, 4>(3.0f);
  static_assert(std::is_same_v<decltype(t * 0.1), tile<float, 4>>);
  CHECK((t * 0.1).data[0] == 3.0f * 0.1f);
  // v1: a 64-bit scalar widens a narrower integer tile (v0 narrowed it to tile<int>).
  static_assert(std::is_same_v<decltype(arange<4>() + int64_t{5}), tile<int64_t, 4>>);
  static_assert(std::is_same_v<decltype(arange<4>() + 5u), tile<int, 4>>);
  static_assert(std::is_same_v<decltype(full<half, 4>(1.0f) * 2.0f), tile<half, 4>>);
}

TEST_CASE("NaN converts to the canonical NaN CUDA gives (0x7fff) in half and bfloat16") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(half(nan).bits == 0x7fff);
  CHECK(half(-nan).bits == 0x7fff);
  CHECK(bfloat16(nan).bits == 0x7fff);
}
