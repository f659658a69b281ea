// §4 Memory: loads, stores, masks and `other`, atomics, block pointers, hints.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace tilecc;

TEST_CASE("load and store of pointer tiles") {
  std::vector<float> x(8), y(8, 0.0f);
  for (int i = 0; i < 8; ++i) x[i] = 1.0f + i;
  auto v = load(x.data() + arange<8>());
  static_assert(std::is_same_v<decltype(v), tile<float, 8>>);
  store(y.data() + arange<8>(), v * 2.0f);
  CHECK(y[7] == 16.0f);
}

TEST_CASE("masked-off lanes are not accessed and yield other (default 0)") {
  std::vector<float> x = {1, 2, 3};
  const float* bad = nullptr;
  auto offs = arange<4>();
  auto mask = offs < 3;
  // Lane 3 points at null: reading it would crash.
  const float* xs = x.data();
  auto ptrs = where(mask, xs + offs, bad);
  auto v = load(ptrs, mask);
  CHECK(v(2) == 3.0f);
  CHECK(v(3) == 0.0f);
  auto w = load(ptrs, mask, -1.5f);
  CHECK(w(3) == -1.5f);
  auto fully_masked = load(ptrs, offs < 0, 7);  // a fully masked tile touches nothing
  CHECK(fully_masked(0) == 7.0f);
}

TEST_CASE("mask and other broadcast to the shape of the pointers") {
  std::vector<int> x(8);
  for (int i = 0; i < 8; ++i) x[i] = i;
  auto ptrs = x.data() + col(arange<2>()) * 4 + row(arange<4>());  // [2, 4]
  auto v = load(ptrs, row(arange<4>()) < 3, col(arange<2>()) - 10);  // mask [1,4], other [2,1]
  static_assert(std::is_same_v<decltype(v), tile<int, 2, 4>>);
  CHECK(v(1, 2) == 6);
  CHECK(v(0, 3) == -10);
  CHECK(v(1, 3) == -9);
}

TEST_CASE("store: values and mask broadcast, a scalar converts, masked lanes untouched") {
  std::vector<half> y(8, half(-1.0f));
  auto ptrs = y.data() + col(arange<2>()) * 4 + row(arange<4>());
  store(ptrs, 0.5, col(arange<2>()) == 1);  // double scalar → half
  CHECK(static_cast<float>(y[0]) == -1.0f);
  CHECK(static_cast<float>(y[5]) == 0.5f);
  store(ptrs, row(cast<half>(arange<4>())));  // [1,4] broadcast over rows
  CHECK(static_cast<float>(y[6]) == 2.0f);
}

TEST_CASE("scalar load and store") {
  int64_t v = 41;
  store(&v, load(&v) + 1);
  CHECK(v == 42);
  float f = 0;
  store(&f, 3);  // scalar converts
  CHECK(f == 3.0f);
  CHECK(load(&f, false, 9) == 9.0f);
}

TEST_CASE("atomic_add returns the old values, masked lanes untouched") {
  std::vector<float> acc = {1, 1, 1, 1};
  auto old = atomic_add(acc.data() + arange<4>(), full<float, 4>(2.0f), arange<4>() != 1);
  CHECK(old(0) == 1.0f);
  CHECK(old(1) == 0.0f);
  CHECK(acc[0] == 3.0f);
  CHECK(acc[1] == 1.0f);
  // Lanes hitting one address all land (a histogram).
  int counter = 0;
  auto olds = atomic_add(&counter + zeros<int, 8>(), 1);
  CHECK(counter == 8);
  CHECK(olds(7) == 7);
  CHECK(atomic_add(&counter, 5) == 8);
  CHECK(counter == 13);
}

TEST_CASE("float atomic_add flushes subnormal operands and sums to zero, as atom.add.f32 does") {
  const float tiny = 1e-40f;  // subnormal
  std::vector<float> acc = {0.0f, tiny, 1.0f, -0.0f};
  const std::vector<float> add = {tiny, 0.0f, tiny, -tiny};
  auto old = atomic_add(acc.data() + arange<4>(), load(add.data() + arange<4>()));
  CHECK(old(1) == tiny);  // the old value as it was in memory
  CHECK(acc[0] == 0.0f);  // a subnormal addend counts as 0
  CHECK(acc[1] == 0.0f);  // so does a subnormal value in memory
  CHECK(acc[2] == 1.0f);
  CHECK(std::signbit(acc[3]));  // -0 + -0: the flush keeps the sign
  float s = 2e-38f;  // normal; minus a normal value leaves a subnormal sum: flushed
  atomic_add(&s, -1.5e-38f);
  CHECK(s == 0.0f);
}

TEST_CASE("block pointers: zero padding outside the shape, skipped stores, advance") {
  // A 5 x 3 matrix with row stride 4.
  std::vector<float> m(20, -1.0f);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) m[i * 4 + j] = 10.0f * i + j;
  auto bp = make_block_ptr<4, 4>(m.data(), {5, 3}, {4, 1}, {2, 1});
  auto t = load(bp);
  static_assert(std::is_same_v<decltype(t), tile<float, 4, 4>>);
  CHECK(t(0, 0) == 21.0f);
  CHECK(t(0, 1) == 22.0f);
  CHECK(t(0, 2) == 0.0f);  // column 3 is outside
  CHECK(t(3, 0) == 0.0f);  // row 5 is outside
  auto bp2 = advance(bp, {-2, -1});
  CHECK(load(bp2)(1, 2) == 12.0f);
  store(bp, full<float, 4, 4>(7.0f));
  CHECK(m[2 * 4 + 1] == 7.0f);
  CHECK(m[2 * 4 + 3] == -1.0f);  // padding column untouched
  CHECK(m[19] == -1.0f);

  std::vector<int> v = {1, 2, 3};
  auto b1 = make_block_ptr<4>(v.data(), {3}, {1}, {-1});  // rank 1, starting before the array
  auto l = load(b1);
  CHECK(l(0) == 0);
  CHECK(l(1) == 1);
  CHECK(l(3) == 3);
  store(b1, 9);
  CHECK(v[0] == 9);
}

TEST_CASE("multiple_of: kept promises pass, broken ones fail loudly with the call site") {
  CHECK(multiple_of(32, 16) == 32);
  auto t = multiple_of(arange<4>() * 8, 8);
  CHECK(t(3) == 24);
  alignas(16) float buf[8];
  CHECK(multiple_of(buf + 0, 16) == buf);
  CHECK_THROWS_AS(multiple_of(buf + 1, 16), contract_violation);
  try {
    multiple_of(arange<4>(), 2);
    FAIL("no throw");
  } catch (const contract_violation& e) {
    CHECK(std::strstr(e.what(), "test_memory.cpp") != nullptr);
    CHECK(std::strstr(e.what(), "multiple_of") != nullptr);
  }
}

TEST_CASE("max_contiguous: runs of N along the last axis") {
  auto offs = col(arange<2>()) * 100 + row(arange<8>());
  CHECK(max_contiguous(offs, 8)(1, 7) == 107);
  CHECK(max_contiguous(offs, 4)(0, 0) == 0);
  CHECK_THROWS_AS(max_contiguous(arange<8>() * 2, 2), contract_violation);
  CHECK(max_contiguous(arange<8>() * 2, 1)(1) == 2);
  float buf[8];
  CHECK(max_contiguous(buf + arange<8>(), 8)(0) == buf);
  CHECK_THROWS_AS(max_contiguous(buf + (arange<8>() % 4), 8), contract_violation);
}
