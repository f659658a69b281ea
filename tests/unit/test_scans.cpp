// §4 Scans and reductions with a combine function (contract v1): cumsum, cumprod, scan and
// reduce on every element type, every axis of ranks 1 to 3, extents of 1, masked lanes, and
// every form of combine function.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace tilecc;

namespace {

// Coordinates of flat index f in a row-major shape, and back.
template <int... D>
void coords_of(int f, int (&c)[sizeof...(D)]) {
  constexpr int ext[] = {D...};
  for (int k = static_cast<int>(sizeof...(D)) - 1; k >= 0; --k) {
    c[k] = f % ext[k];
    f /= ext[k];
  }
}
template <int... D>
int flat_of(const int (&c)[sizeof...(D)]) {
  constexpr int ext[] = {D...};
  int f = 0;
  for (int k = 0; k < static_cast<int>(sizeof...(D)); ++k) f = f * ext[k] + c[k];
  return f;
}

template <class T>
double num(T v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>)
    return static_cast<double>(static_cast<float>(v));
  else
    return static_cast<double>(v);
}

// Small exact values of every element type: v(i) in [-3, 4] (non-negative for unsigned, 0/1
// for bool), different along every axis.
template <class T, int... D>
tile<T, D...> sample() {
  tile<T, D...> t;
  for (int i = 0; i < t.size; ++i) {
    const int v = (i * 7 + 3) % 8 - 3;
    if constexpr (std::is_same_v<T, bool>)
      t.data[i] = (v & 1) != 0;
    else if constexpr (std::is_unsigned_v<T>)
      t.data[i] = static_cast<T>(v + 3);
    else
      t.data[i] = T(static_cast<float>(v));
  }
  return t;
}

// The inclusive scan along Axis, independently of the header: out(c) folds step over x(c with
// c[Axis] = 0..c[Axis]), in double (every value here is exact in double).
template <int Axis, class Step, class T, int... D>
double scan_ref(const tile<T, D...>& x, int f, Step step) {
  int c[sizeof...(D)];
  coords_of<D...>(f, c);
  const int upto = c[Axis];
  c[Axis] = 0;
  double acc = num(x.data[flat_of<D...>(c)]);
  for (int k = 1; k <= upto; ++k) {
    c[Axis] = k;
    acc = step(acc, num(x.data[flat_of<D...>(c)]));
  }
  return acc;
}

template <class Acc, int Axis, class T, int... D>
void check_cumsum_cumprod() {
  const auto x = sample<T, D...>();
  const auto s = cumsum<Axis>(x);
  const auto p = cumprod<Axis>(x);
  static_assert(std::is_same_v<decltype(s), const tile<Acc, D...>>);
  static_assert(std::is_same_v<decltype(p), const tile<Acc, D...>>);
  for (int f = 0; f < x.size; ++f) {
    CAPTURE(f);
    CHECK(num(s.data[f]) == scan_ref<Axis>(x, f, [](double a, double b) { return a + b; }));
    CHECK(num(p.data[f]) == scan_ref<Axis>(x, f, [](double a, double b) { return a * b; }));
  }
}

// Every axis of ranks 1 to 3, with extents of 1 among them.
template <class T, class Acc>
void check_all_shapes() {
  check_cumsum_cumprod<Acc, 0, T, 8>();
  check_cumsum_cumprod<Acc, 0, T, 1>();
  check_cumsum_cumprod<Acc, 0, T, 4, 8>();
  check_cumsum_cumprod<Acc, 1, T, 4, 8>();
  check_cumsum_cumprod<Acc, 1, T, 4, 1>();
  check_cumsum_cumprod<Acc, 0, T, 1, 8>();
  check_cumsum_cumprod<Acc, 0, T, 2, 4, 8>();
  check_cumsum_cumprod<Acc, 1, T, 2, 4, 8>();
  check_cumsum_cumprod<Acc, 2, T, 2, 4, 8>();
  check_cumsum_cumprod<Acc, 1, T, 2, 1, 4>();
}

// A function template passed by name: instantiated for the element type.
template <class T>
T larger(T a, T b) {
  return num(a) < num(b) ? b : a;
}
int add_ints(int a, int b) { return a + b; }
struct multiply_floats {
  float operator()(float a, float b) const { return a * b; }
};

template <int Axis, class T, int... D>
void check_scan_reduce_max() {
  const auto x = sample<T, D...>();
  const auto s = scan<Axis>(x, larger);  // the function template by name
  static_assert(std::is_same_v<decltype(s), const tile<T, D...>>);
  const auto r = reduce<Axis>(x, [](T a, T b) { return larger(a, b); });  // a lambda
  for (int f = 0; f < x.size; ++f) {
    CAPTURE(f);
    CHECK(num(s.data[f]) == scan_ref<Axis>(x, f, [](double a, double b) { return a < b ? b : a; }));
  }
  // The reduction is the scan's last element along the axis.
  constexpr int ext[] = {D...};
  if constexpr (sizeof...(D) == 1) {
    static_assert(std::is_same_v<decltype(r), const T>);
    CHECK(num(r) == num(s.data[ext[0] - 1]));
  } else {
    for (int f = 0; f < x.size; ++f) {
      int c[sizeof...(D)];
      coords_of<D...>(f, c);
      if (c[Axis] != ext[Axis] - 1) continue;
      int rc[sizeof...(D) - 1];
      for (int k = 0, j = 0; k < static_cast<int>(sizeof...(D)); ++k)
        if (k != Axis) rc[j++] = c[k];
      int rf = 0;
      for (int k = 0, j = 0; k < static_cast<int>(sizeof...(D)); ++k)
        if (k != Axis) rf = rf * ext[k] + rc[j++];
      CHECK(num(r.data[rf]) == num(s.data[f]));
    }
  }
}

template <class T>
void check_combine_all_shapes() {
  check_scan_reduce_max<0, T, 8>();
  check_scan_reduce_max<0, T, 1>();
  check_scan_reduce_max<0, T, 4, 8>();
  check_scan_reduce_max<1, T, 4, 8>();
  check_scan_reduce_max<1, T, 4, 1>();
  check_scan_reduce_max<0, T, 2, 4, 8>();
  check_scan_reduce_max<1, T, 2, 4, 8>();
  check_scan_reduce_max<2, T, 2, 4, 8>();
  check_scan_reduce_max<0, T, 1, 2, 2>();
}

}  // namespace

TEST_CASE("cumsum/cumprod on every element type, axis and rank, accumulation types as sum") {
  check_all_shapes<bool, int>();
  check_all_shapes<int8_t, int>();
  check_all_shapes<uint8_t, int>();
  check_all_shapes<int32_t, int32_t>();
  check_all_shapes<uint32_t, uint32_t>();
  check_all_shapes<int64_t, int64_t>();
  check_all_shapes<float, float>();
  check_all_shapes<half, float>();
  check_all_shapes<bfloat16, float>();
}

TEST_CASE("scan/reduce with a combine function on every element type, axis and rank") {
  check_combine_all_shapes<bool>();
  check_combine_all_shapes<int8_t>();
  check_combine_all_shapes<uint8_t>();
  check_combine_all_shapes<int32_t>();
  check_combine_all_shapes<uint32_t>();
  check_combine_all_shapes<int64_t>();
  check_combine_all_shapes<float>();
  check_combine_all_shapes<half>();
  check_combine_all_shapes<bfloat16>();
}

TEST_CASE("cumsum: half accumulates in float (a half running sum would stall at 2048)") {
  auto h = cumsum(full<half, 4096>(1.0f));
  static_assert(std::is_same_v<decltype(h), tile<float, 4096>>);
  CHECK(h(4095) == 4096.0f);
  auto i8 = cumsum(full<int8_t, 8>(int8_t{100}));
  CHECK(i8(7) == 800);  // in int, not wrapped in int8_t
  auto w = cumprod(full<int, 4>(1 << 16));
  CHECK(w(1) == 0);  // int wraps: 2^32 mod 2^32
  auto u = cumsum(full<uint32_t, 2>(4000000000u));
  CHECK(u(1) == 4000000000u + 4000000000u);  // uint32_t keeps its type and wraps
}

TEST_CASE("scan/reduce combine in order along the axis (left to right)") {
  auto t = col(arange<2>()) * 10 + row(arange<4>());  // t(i, j) = 10 i + j
  auto first = scan<1>(t, [](int a, int) { return a; });
  auto last = scan<1>(t, [](int, int b) { return b; });
  CHECK(first(1, 3) == 10);
  CHECK(last(1, 3) == 13);
  CHECK(reduce<1>(t, [](int a, int) { return a; })(1) == 10);
  CHECK(reduce<1>(t, [](int, int b) { return b; })(1) == 13);
  CHECK(reduce<0>(t, [](int, int b) { return b; })(2) == 12);
  auto down = scan<0>(t, [](int a, int b) { return a + b; });
  CHECK(down(1, 2) == 2 + 12);
}

TEST_CASE("combine functions: lambda, generic lambda, function, function template, function object") {
  auto t = arange<8>() + 1;  // 1..8
  CHECK(reduce(t, [](int a, int b) { return a + b; }) == 36);
  CHECK(reduce(t, [](auto a, auto b) { return a * b; }) == 40320);  // generic lambda
  CHECK(reduce(t, add_ints) == 36);                                  // a function by name
  CHECK(reduce(t, &add_ints) == 36);                                 // or its address
  CHECK(reduce(t, larger) == 8);                                     // a function template by name
  CHECK(reduce(t, larger<int>) == 8);                                // or one instance
  CHECK(scan(t, add_ints)(7) == 36);
  CHECK(scan(t, larger)(3) == 4);
  auto f = cast<float>(t);
  CHECK(reduce(f, multiply_floats{}) == 40320.0f);  // an empty function object
  CHECK(scan(f, multiply_floats{})(3) == 24.0f);
  // What the rule combine_function rejects (misuse/combine_*.cpp show the errors):
  int k = 3;  // not a constant: the lambda must capture it
  auto capturing = [k](int a, int b) { return a + b + k; };
  static_assert(!combine_function<decltype(capturing), int>);  // carries state
  CHECK(capturing(1, 2) == 6);
  static_assert(!combine_function<float (*)(float, float), int>);        // takes another type
  static_assert(!combine_function<decltype([](auto a, auto b) { return a + b; }), int8_t>);  // returns int
  static_assert(combine_function<decltype([](int8_t a, int8_t b) -> int8_t { return a + b; }), int8_t>);
  static_assert(!combine_function<decltype([](int a, int b) { return a + b; }), int*>);  // not an element type
  static_assert(combine_function<multiply_floats, float>);
}

TEST_CASE("masked lanes: where(mask, x, identity) before a scan, counts and positions from masks") {
  float in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const int n = 5;
  auto offs = arange<8>();
  auto mask = offs < n;
  auto x = load(in + offs, mask, 0.0f);
  auto s = cumsum(where(mask, x, 0.0f));
  CHECK(s(4) == 15.0f);
  CHECK(s(7) == 15.0f);  // masked lanes add the identity
  auto m = scan(where(mask, x, -std::numeric_limits<float>::infinity()),
                [](float a, float b) { return a < b ? b : a; });
  CHECK(m(7) == 5.0f);
  auto keep = (offs % 3) != 0;                 // keep 1 2 4 5 7
  auto slot = cumsum(keep) - 1;                // where each kept lane lands when compacted
  static_assert(std::is_same_v<decltype(slot), tile<int, 8>>);
  CHECK(slot(7) == 4);
  CHECK(slot(2) == 1);
  int out[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  store(out + slot, offs, keep);
  CHECK(out[0] == 1);
  CHECK(out[4] == 7);
  CHECK(out[5] == -1);
  auto rows = cumsum<1>(reshape<2, 4>(keep));  // per row
  CHECK(rows(1, 3) == 3);
  CHECK(reduce(where(mask, x, 1.0f), [](float a, float b) { return a * b; }) == 120.0f);
}
