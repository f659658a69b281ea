// tilecc: the tile language (contract v0) and its host twin.
//
// Kernels written against this header compile with any C++20 compiler and run on the CPU
// through tilecc::host::launch; the tilecc translator parses the same source and prints CUDA.
// Every operation here is the reference semantics the generated code is tested against.
//
// Misuse is rejected at the call site through named C++20 constraints (shape_broadcast,
// dot_operands, ...), so a compiler's first message names the rule that was broken.
// The header stays lean (no <string>, <vector>, <iostream>): the translator parses it for
// every kernel file.
#pragma once

#if __cplusplus < 202002L
#error "tilecc kernels need C++20 (-std=c++20)"
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <source_location>
#include <type_traits>
#include <utility>

#include "tilecc/numeric.hpp"

// ---- kernel markers -------------------------------------------------------------------
// For Clang (the translator, or a Clang host build) these become annotations the translator
// reads; for other compilers they expand to nothing.
#if defined(__clang__)
#define TILECC_KERNEL(...) [[clang::annotate("tilecc.kernel" __VA_OPT__(, #__VA_ARGS__))]]
#define TILECC_ALIGNED(N) [[clang::annotate("tilecc.aligned", N)]]
#define TILECC_MULTIPLE_OF(N) [[clang::annotate("tilecc.multiple_of", N)]]
#else
#define TILECC_KERNEL(...)
#define TILECC_ALIGNED(N)
#define TILECC_MULTIPLE_OF(N)
#endif

namespace tilecc {

// ---- errors of the host twin ------------------------------------------------------------

/// Thrown by the host twin when a kernel breaks the contract at run time (a broken promise,
/// program_id outside a launch). Never thrown for valid kernels.
class contract_violation : public std::exception {
 public:
  char message[512];
  const char* what() const noexcept override { return message; }
};

namespace detail {

// fmt is always one of this header's literals.
template <class... A>
void print_into(char* buf, unsigned size, const char* fmt, A... args) {
#if defined(__clang__) || defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
  std::snprintf(buf, size, fmt, args...);
#if defined(__clang__) || defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}

template <class... A>
[[noreturn]] void fail(const std::source_location& loc, const char* fmt, A... args) {
  contract_violation e;
  int n = std::snprintf(e.message, sizeof e.message, "%s:%u:%u: tilecc: ", loc.file_name(),
                        static_cast<unsigned>(loc.line()), static_cast<unsigned>(loc.column()));
  if (n < 0) n = 0;
  if (static_cast<unsigned>(n) < sizeof e.message)
    print_into(e.message + n, sizeof e.message - static_cast<unsigned>(n), fmt, args...);
  throw e;
}

}  // namespace detail

// ---- shapes -------------------------------------------------------------------------------

namespace detail {

constexpr bool is_pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

/// A tile shape as a value; rank 0 stands for a scalar.
struct shape_t {
  int rank = 0;
  int ext[3] = {1, 1, 1};
  bool ok = true;
  constexpr int size() const { return ext[0] * ext[1] * ext[2]; }
  constexpr bool operator==(const shape_t&) const = default;
};

template <int... D>
constexpr shape_t make_shape() {
  shape_t s;
  s.rank = static_cast<int>(sizeof...(D));
  const int e[] = {D...};
  for (int i = 0; i < s.rank && i < 3; ++i) s.ext[i] = e[i];
  return s;
}

// NumPy broadcasting over equal ranks (a scalar broadcasts to anything).
constexpr shape_t broadcast(shape_t a, shape_t b) {
  if (!a.ok || !b.ok) return shape_t{0, {1, 1, 1}, false};
  if (a.rank == 0) return b;
  if (b.rank == 0) return a;
  if (a.rank != b.rank) return shape_t{0, {1, 1, 1}, false};
  shape_t r = a;
  for (int i = 0; i < a.rank; ++i) {
    if (a.ext[i] == b.ext[i] || b.ext[i] == 1) continue;
    if (a.ext[i] == 1) {
      r.ext[i] = b.ext[i];
      continue;
    }
    r.ok = false;
  }
  return r;
}

// `from` broadcasts to exactly `to` (operands of load/store broadcast to the pointers' shape,
// never the other way).
constexpr bool broadcasts_to(shape_t from, shape_t to) {
  const shape_t b = broadcast(from, to);
  return b.ok && b == to;
}

}  // namespace detail

template <int... D>
concept tile_rank_is_1_to_3 = sizeof...(D) >= 1 && sizeof...(D) <= 3;

template <int... D>
concept tile_extents_are_powers_of_two = (detail::is_pow2(D) && ...);

template <class T>
concept tile_element_type = element_type<T> || pointer_element<T>;

/// A tile: an immutable-by-convention block of values, row-major, with a static shape.
/// `data` and operator() are for host code (tests, debugging); kernels use the operations.
template <class T, int... D>
  requires tile_element_type<T> && tile_rank_is_1_to_3<D...> && tile_extents_are_powers_of_two<D...>
struct tile {
  using element_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(D));
  static constexpr int size = (D * ...);
  static constexpr int extents[rank] = {D...};

  T data[size]{};

  template <class... I>
    requires(sizeof...(I) == sizeof...(D) && (std::is_integral_v<I> && ...))
  T& operator()(I... idx) {
    return data[flat(idx...)];
  }
  template <class... I>
    requires(sizeof...(I) == sizeof...(D) && (std::is_integral_v<I> && ...))
  const T& operator()(I... idx) const {
    return data[flat(idx...)];
  }

 private:
  template <class... I>
  static int flat(I... idx) {
    int f = 0, k = 0;
    ((f = f * extents[k++] + static_cast<int>(idx)), ...);
    return f;
  }
};

namespace detail {

template <class X>
struct tile_traits {
  static constexpr bool is_tile = false;
  using element = X;
  static constexpr shape_t shape{};
};
template <class T, int... D>
struct tile_traits<tile<T, D...>> {
  static constexpr bool is_tile = true;
  using element = T;
  static constexpr shape_t shape = make_shape<D...>();
};

template <class T, int R, int E0, int E1, int E2>
struct tile_of_rank;
// make() returns the tile type spelled as tile<T, E...>, so that diagnostics name it plainly.
template <class T, int E0, int E1, int E2>
struct tile_of_rank<T, 0, E0, E1, E2> {
  using type = T;
  static T make() { return T{}; }
};
template <class T, int E0, int E1, int E2>
struct tile_of_rank<T, 1, E0, E1, E2> {
  using type = tile<T, E0>;
  static tile<T, E0> make() { return {}; }
};
template <class T, int E0, int E1, int E2>
struct tile_of_rank<T, 2, E0, E1, E2> {
  using type = tile<T, E0, E1>;
  static tile<T, E0, E1> make() { return {}; }
};
template <class T, int E0, int E1, int E2>
struct tile_of_rank<T, 3, E0, E1, E2> {
  using type = tile<T, E0, E1, E2>;
  static tile<T, E0, E1, E2> make() { return {}; }
};

/// The tile of element T and shape S (T itself for a rank-0 shape).
template <class T, shape_t S>
struct tile_for {
  static constexpr int r = S.rank, e0 = S.ext[0], e1 = S.ext[1], e2 = S.ext[2];
  using type = typename tile_of_rank<T, r, e0, e1, e2>::type;
  static auto make() { return tile_of_rank<T, r, e0, e1, e2>::make(); }
};
template <class T, shape_t S>
using tile_t = typename tile_for<T, S>::type;

template <class X>
inline constexpr bool is_tile_v = tile_traits<std::remove_cvref_t<X>>::is_tile;

template <class X>
inline constexpr shape_t shape_of = tile_traits<std::remove_cvref_t<X>>::shape;

template <class... X>
constexpr shape_t common_shape() {
  shape_t s{};
  ((s = broadcast(s, shape_of<X>)), ...);
  return s;
}

}  // namespace detail

// ---- operand classes -----------------------------------------------------------------------

template <class X>
concept tile_value = detail::is_tile_v<X>;

/// A scalar that may appear beside tiles: any C++ arithmetic type, half or bfloat16.
template <class X>
concept scalar_value =
    std::is_arithmetic_v<X> || std::is_same_v<X, half> || std::is_same_v<X, bfloat16>;

namespace detail {

// The element type a scalar takes in kernel code: double is float, small integers are int.
template <class S>
auto scalar_element_probe() {
  if constexpr (std::is_same_v<S, bool> || std::is_same_v<S, half> || std::is_same_v<S, bfloat16> ||
                std::is_pointer_v<S>)
    return std::type_identity<S>{};
  else if constexpr (std::is_floating_point_v<S>)
    return std::type_identity<float>{};
  else if constexpr (sizeof(S) == 8)
    return std::type_identity<std::int64_t>{};
  else if constexpr (std::is_same_v<S, unsigned>)
    return std::type_identity<std::uint32_t>{};
  else
    return std::type_identity<std::int32_t>{};
}

template <class X, bool = is_tile_v<X>>
struct element_of_impl {
  using type = typename decltype(scalar_element_probe<std::decay_t<X>>())::type;  // arrays act as pointers
};
template <class X>
struct element_of_impl<X, true> {
  using type = typename tile_traits<std::remove_cvref_t<X>>::element;
};

/// Element type of a tile, or the kernel-code type of a scalar.
template <class X>
using element_of = typename element_of_impl<X>::type;

template <class... X>
struct first_tile_element {
  using type = void;
};
template <class X, class... R>
struct first_tile_element<X, R...> {
  using type = typename std::conditional_t<is_tile_v<X>, element_of_impl<X>, first_tile_element<R...>>::type;
};

template <class... X>
inline constexpr bool tile_elements_agree =
    ((!is_tile_v<X> || std::is_same_v<element_of<X>, typename first_tile_element<X...>::type>) && ...);

// The one type all operands of an elementwise operation convert to: the tiles' element type,
// except that an integer tile meeting a floating scalar computes in float; scalars alone use
// their usual common type.
template <class... X>
auto compute_probe() {
  if constexpr (!(is_tile_v<X> || ...)) {
    return std::type_identity<std::common_type_t<element_of<X>...>>{};
  } else {
    using T = typename first_tile_element<X...>::type;
    if constexpr (integer_element<T> && ((!is_tile_v<X> && float_element<element_of<X>>) || ...))
      return std::type_identity<float>{};
    else
      return std::type_identity<T>{};
  }
}

template <class... X>
using compute_t = typename decltype(compute_probe<X...>())::type;

}  // namespace detail

/// Tiles combined elementwise need the same element type (use cast<U>).
template <class... X>
concept tile_element_types_match = detail::tile_elements_agree<X...>;

/// Tiles combined elementwise broadcast like NumPy over equal ranks (each extent equal or 1).
template <class... X>
concept shapes_broadcast = detail::common_shape<X...>().ok;

template <class X>
concept tile_or_scalar = tile_value<X> || scalar_value<X>;

template <class... X>
concept has_a_tile = (tile_value<X> || ...);

template <class... X>
concept elementwise_operands =
    has_a_tile<X...> && (tile_or_scalar<X> && ...) && tile_element_types_match<X...> && shapes_broadcast<X...>;

template <class A, class B>
concept arithmetic_operands = elementwise_operands<A, B> && numeric_element<detail::compute_t<A, B>>;

template <class A, class B>
concept bitwise_operands = elementwise_operands<A, B> &&
                           (integer_element<detail::compute_t<A, B>> || std::is_same_v<detail::compute_t<A, B>, bool>);

template <class A, class B>
concept integer_operands = elementwise_operands<A, B> && integer_element<detail::compute_t<A, B>>;

template <class A, class B>
concept comparable_operands = elementwise_operands<A, B> && element_type<detail::compute_t<A, B>>;

/// A tile of pointers, or a plain pointer to an element type.
template <class X>
concept pointer_operand = (tile_value<X> && pointer_element<detail::element_of<X>>) || pointer_element<std::decay_t<X>>;

/// A tile of integers, or an integer scalar (not bool).
template <class X>
concept integer_operand = (tile_value<X> && integer_element<detail::element_of<X>>) ||
                          (std::is_integral_v<X> && !std::is_same_v<X, bool>);

/// `pointers + offsets`, in elements.
template <class P, class I>
concept pointer_offset_operands =
    has_a_tile<P, I> && pointer_operand<P> && integer_operand<I> && shapes_broadcast<P, I>;

template <class X>
concept floating_tile = tile_value<X> && float_element<detail::element_of<X>>;

template <class X>
concept numeric_tile = tile_value<X> && numeric_element<detail::element_of<X>>;

template <class X>
concept pointer_tile = tile_value<X> && pointer_element<detail::element_of<X>>;

template <class X>
concept mask_operand = std::is_same_v<X, bool> || (tile_value<X> && std::is_same_v<detail::element_of<X>, bool>);

// ---- the elementwise engine ------------------------------------------------------------------

namespace detail {

// Value of operand x at flat index `flat` of the broadcast result shape S.
template <shape_t S, class X>
auto pick(const X& x, int flat) {
  if constexpr (!is_tile_v<X>) {
    return x;
  } else {
    constexpr shape_t xs = shape_of<X>;
    if constexpr (xs == S) {
      return x.data[flat];
    } else {
      int idx = 0, mul = 1;
      for (int k = S.rank - 1; k >= 0; --k) {
        const int c = flat % S.ext[k];
        flat /= S.ext[k];
        if (xs.ext[k] != 1) idx += c * mul;
        mul *= xs.ext[k];
      }
      return x.data[idx];
    }
  }
}

// Apply f to every element of the broadcast of x..., giving a tile of R.
template <class R, class F, class... X>
auto map(F f, const X&... x) {
  constexpr shape_t S = common_shape<X...>();
  static_assert(S.ok && S.rank > 0);
  auto out = tile_for<R, S>::make();
  for (int i = 0; i < S.size(); ++i) out.data[i] = f(pick<S>(x, i)...);
  return out;
}

template <class Op, class... X>
auto elementwise(const X&... x) {
  using C = compute_t<X...>;
  using R = decltype(Op{}((static_cast<void>(sizeof(X)), std::declval<C>())...));
  return map<R>([](auto... v) { return Op{}(convert<C>(v)...); }, x...);
}

template <class C>
using wide_unsigned_t = std::conditional_t<(sizeof(C) > 4), std::uint64_t, std::uint32_t>;

template <class C>
constexpr bool is_signed_int = std::is_integral_v<C> && std::is_signed_v<C>;

// Integer + - * wrap (two's complement); half/bfloat16 compute in float and round back.
struct op_add {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (is_signed_int<C>)
      return static_cast<C>(static_cast<wide_unsigned_t<C>>(a) + static_cast<wide_unsigned_t<C>>(b));
    else
      return convert<C>(up(a) + up(b));
  }
};
struct op_sub {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (is_signed_int<C>)
      return static_cast<C>(static_cast<wide_unsigned_t<C>>(a) - static_cast<wide_unsigned_t<C>>(b));
    else
      return convert<C>(up(a) - up(b));
  }
};
struct op_mul {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)
      return static_cast<C>(static_cast<wide_unsigned_t<C>>(a) * static_cast<wide_unsigned_t<C>>(b));
    else
      return convert<C>(up(a) * up(b));
  }
};
struct op_neg {
  template <class C>
  C operator()(C a) const {
    if constexpr (std::is_integral_v<C>)
      return static_cast<C>(0u - static_cast<wide_unsigned_t<C>>(a));
    else
      return convert<C>(-up(a));
  }
};
// Integer division truncates; by zero it gives 0 (unspecified by the contract, never a trap);
// MIN / -1 wraps.
struct op_div {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) {
      if (b == 0) return 0;
      if constexpr (std::is_signed_v<C>)
        if (b == static_cast<C>(-1)) return op_neg{}(a);
      return static_cast<C>(a / b);
    } else {
      return convert<C>(up(a) / up(b));
    }
  }
};
struct op_rem {
  template <class C>
  C operator()(C a, C b) const {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>)
      if (b == static_cast<C>(-1)) return 0;
    return static_cast<C>(a % b);
  }
};
// Shifts count in the width of the promoted type (32 or 64 bits); out-of-range counts give
// 0 (or the sign fill for >>), as PTX's clamped shl/shr.
struct op_shl {
  template <class C>
  C operator()(C a, C b) const {
    constexpr int bits = sizeof(C) > 4 ? 64 : 32;
    if (b < 0 || b >= bits) return 0;
    return static_cast<C>(static_cast<wide_unsigned_t<C>>(a) << static_cast<int>(b));
  }
};
struct op_shr {
  template <class C>
  C operator()(C a, C b) const {
    constexpr int bits = sizeof(C) > 4 ? 64 : 32;
    if (b < 0 || b >= bits) return (is_signed_int<C> && a < 0) ? static_cast<C>(-1) : static_cast<C>(0);
    return static_cast<C>(a >> static_cast<int>(b));
  }
};
struct op_and {
  template <class C>
  C operator()(C a, C b) const { return static_cast<C>(a & b); }
};
struct op_or {
  template <class C>
  C operator()(C a, C b) const { return static_cast<C>(a | b); }
};
struct op_xor {
  template <class C>
  C operator()(C a, C b) const { return static_cast<C>(a ^ b); }
};
struct op_bitnot {
  template <class C>
  C operator()(C a) const {
    if constexpr (std::is_same_v<C, bool>)
      return !a;
    else
      return static_cast<C>(~a);
  }
};
struct op_not {
  template <class C>
  bool operator()(C a) const { return !a; }
};
struct op_eq {
  template <class C>
  bool operator()(C a, C b) const { return up(a) == up(b); }
};
struct op_ne {
  template <class C>
  bool operator()(C a, C b) const { return up(a) != up(b); }
};
struct op_lt {
  template <class C>
  bool operator()(C a, C b) const { return up(a) < up(b); }
};
struct op_le {
  template <class C>
  bool operator()(C a, C b) const { return up(a) <= up(b); }
};
struct op_gt {
  template <class C>
  bool operator()(C a, C b) const { return up(a) > up(b); }
};
struct op_ge {
  template <class C>
  bool operator()(C a, C b) const { return up(a) >= up(b); }
};
// maximum/minimum ignore NaN (fmax/fmin).
struct op_max {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (float_element<C>)
      return convert<C>(std::fmax(up(a), up(b)));
    else
      return a < b ? b : a;
  }
};
struct op_min {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (float_element<C>)
      return convert<C>(std::fmin(up(a), up(b)));
    else
      return b < a ? b : a;
  }
};
struct op_fma {
  template <class C>
  C operator()(C a, C b, C c) const {
    if constexpr (std::is_integral_v<C>)
      return op_add{}(op_mul{}(a, b), c);
    else
      return convert<C>(std::fma(up(a), up(b), up(c)));
  }
};

template <class P, class I>
P offset_pointer(P p, I off) {
  // Through uintptr_t: offsets of masked-off lanes may point anywhere, which must not be UB.
  const auto bytes = static_cast<std::uint64_t>(static_cast<std::int64_t>(off)) * sizeof(pointee_t<P>);
  return reinterpret_cast<P>(reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(bytes));
}

// An array operand (host code) acts as a pointer to its first element. Binding it to
// `const A&` added a const that the array's elements need not have, so take it back off.
template <class X>
decltype(auto) as_pointer_operand(const X& x) {
  if constexpr (std::is_array_v<X>)
    return const_cast<std::decay_t<X>>(static_cast<const std::remove_extent_t<X>*>(x));
  else
    return (x);
}

template <class P0, class I>
auto offset_pointers(const P0& p0, const I& i, bool negate) {
  const auto& p = as_pointer_operand(p0);
  using P = std::remove_cvref_t<decltype(p)>;
  using PT = element_of<P>;
  return map<PT>(
      [negate](PT ptr, auto off) {
        const std::int64_t o = static_cast<std::int64_t>(off);
        return offset_pointer(ptr, negate ? static_cast<std::int64_t>(0ull - static_cast<std::uint64_t>(o)) : o);
      },
      p, i);
}

}  // namespace detail

// ---- operators -------------------------------------------------------------------------------

template <class A, class B>
  requires arithmetic_operands<A, B> || pointer_offset_operands<A, B> || pointer_offset_operands<B, A>
auto operator+(const A& a, const B& b) {
  if constexpr (arithmetic_operands<A, B>)
    return detail::elementwise<detail::op_add>(a, b);
  else if constexpr (pointer_offset_operands<A, B>)
    return detail::offset_pointers(a, b, false);
  else
    return detail::offset_pointers(b, a, false);
}

template <class A, class B>
  requires arithmetic_operands<A, B> || pointer_offset_operands<A, B>
auto operator-(const A& a, const B& b) {
  if constexpr (arithmetic_operands<A, B>)
    return detail::elementwise<detail::op_sub>(a, b);
  else
    return detail::offset_pointers(a, b, true);
}

#define TILECC_BINARY_OPERATOR(OP, CONCEPT, FN)     \
  template <class A, class B>                       \
    requires CONCEPT<A, B>                          \
  auto operator OP(const A& a, const B& b) {        \
    return detail::elementwise<detail::FN>(a, b);   \
  }
TILECC_BINARY_OPERATOR(*, arithmetic_operands, op_mul)
TILECC_BINARY_OPERATOR(/, arithmetic_operands, op_div)
TILECC_BINARY_OPERATOR(%, integer_operands, op_rem)
TILECC_BINARY_OPERATOR(<<, integer_operands, op_shl)
TILECC_BINARY_OPERATOR(>>, integer_operands, op_shr)
TILECC_BINARY_OPERATOR(&, bitwise_operands, op_and)
TILECC_BINARY_OPERATOR(|, bitwise_operands, op_or)
TILECC_BINARY_OPERATOR(^, bitwise_operands, op_xor)
TILECC_BINARY_OPERATOR(==, comparable_operands, op_eq)
TILECC_BINARY_OPERATOR(!=, comparable_operands, op_ne)
TILECC_BINARY_OPERATOR(<, comparable_operands, op_lt)
TILECC_BINARY_OPERATOR(<=, comparable_operands, op_le)
TILECC_BINARY_OPERATOR(>, comparable_operands, op_gt)
TILECC_BINARY_OPERATOR(>=, comparable_operands, op_ge)
#undef TILECC_BINARY_OPERATOR

template <class X>
  requires numeric_tile<X>
auto operator-(const X& x) {
  return detail::elementwise<detail::op_neg>(x);
}
template <class X>
  requires numeric_tile<X>
X operator+(const X& x) {
  return x;
}
template <class X>
  requires tile_value<X> && (integer_element<detail::element_of<X>> || std::is_same_v<detail::element_of<X>, bool>)
auto operator~(const X& x) {
  return detail::elementwise<detail::op_bitnot>(x);
}
template <class X>
  requires tile_value<X> && (integer_element<detail::element_of<X>> || std::is_same_v<detail::element_of<X>, bool>)
auto operator!(const X& x) {
  return detail::elementwise<detail::op_not>(x);
}

/// `acc OP= x` keeps acc's type and shape: `acc OP x` must give acc's type (x broadcasts
/// to acc; an int tile cannot take a float).
template <class Result, class Target>
concept compound_assignment_keeps_type = std::is_same_v<Result, Target>;

#define TILECC_COMPOUND_OPERATOR(OP)                                                                  \
  template <class T, int... D, class R>                                                               \
    requires requires(const tile<T, D...>& l, const R& r) { l OP r; } &&                              \
             compound_assignment_keeps_type<                                                          \
                 decltype(std::declval<const tile<T, D...>&>() OP std::declval<const R&>()), tile<T, D...>> \
  tile<T, D...>& operator OP##=(tile<T, D...>& l, const R& r) {                                       \
    l = l OP r;                                                                                       \
    return l;                                                                                         \
  }
TILECC_COMPOUND_OPERATOR(+)
TILECC_COMPOUND_OPERATOR(-)
TILECC_COMPOUND_OPERATOR(*)
TILECC_COMPOUND_OPERATOR(/)
TILECC_COMPOUND_OPERATOR(%)
TILECC_COMPOUND_OPERATOR(&)
TILECC_COMPOUND_OPERATOR(|)
TILECC_COMPOUND_OPERATOR(^)
TILECC_COMPOUND_OPERATOR(<<)
TILECC_COMPOUND_OPERATOR(>>)
#undef TILECC_COMPOUND_OPERATOR

// ---- creation ----------------------------------------------------------------------------------

/// 0, 1, ..., N-1.
template <int N>
  requires tile_extents_are_powers_of_two<N>
tile<int, N> arange() {
  tile<int, N> t;
  for (int i = 0; i < N; ++i) t.data[i] = i;
  return t;
}

template <class T, int... D>
  requires tile_element_type<T> && tile_rank_is_1_to_3<D...> && tile_extents_are_powers_of_two<D...>
tile<T, D...> zeros() {
  return tile<T, D...>{};
}

template <class T, int... D, class V>
  requires element_type<T> && scalar_value<V> && tile_rank_is_1_to_3<D...> && tile_extents_are_powers_of_two<D...>
tile<T, D...> full(V v) {
  tile<T, D...> t;
  const T c = convert<T>(v);
  for (auto& e : t.data) e = c;
  return t;
}

// ---- elementwise functions ---------------------------------------------------------------------

/// cast<U>(x): converts every element (float→int truncates and saturates, NaN → 0; narrowing
/// floats round to nearest even). Also works on scalars.
template <class U, class X>
  requires element_type<U> && (tile_value<X> ? element_type<detail::element_of<X>> : scalar_value<X>)
auto cast(const X& x) {
  if constexpr (tile_value<X>)
    return detail::map<U>([](auto v) { return convert<U>(v); }, x);
  else
    return convert<U>(x);
}

template <class M, class A, class B>
concept where_operands = has_a_tile<M, A, B> && mask_operand<M> &&
                         (tile_or_scalar<A> || pointer_element<A>) && (tile_or_scalar<B> || pointer_element<B>) &&
                         tile_element_types_match<A, B> && shapes_broadcast<M, A, B>;

/// Elementwise choice; scalars may stand in any position and broadcast.
template <class M, class A, class B>
  requires where_operands<M, A, B>
auto where(const M& mask, const A& a, const B& b) {
  using C = detail::compute_t<A, B>;
  return detail::map<C>([](bool m, auto x, auto y) { return m ? convert<C>(x) : convert<C>(y); }, mask, a, b);
}

template <class A, class B>
  requires arithmetic_operands<A, B>
auto maximum(const A& a, const B& b) {
  return detail::elementwise<detail::op_max>(a, b);
}
template <class A, class B>
  requires arithmetic_operands<A, B>
auto minimum(const A& a, const B& b) {
  return detail::elementwise<detail::op_min>(a, b);
}

template <class A, class B, class C>
  requires elementwise_operands<A, B, C> && numeric_element<detail::compute_t<A, B, C>>
auto fma(const A& a, const B& b, const C& c) {
  return detail::elementwise<detail::op_fma>(a, b, c);
}

template <class X>
  requires numeric_tile<X>
X abs(const X& x) {
  using T = detail::element_of<X>;
  return detail::map<T>(
      [](T v) {
        if constexpr (std::is_integral_v<T>)
          return (std::is_signed_v<T> && v < 0) ? detail::op_neg{}(v) : v;
        else
          return convert<T>(std::fabs(detail::up(v)));
      },
      x);
}

// Floating-point math: computed in float (half/bfloat16 round back to their type).
#define TILECC_FLOAT_FUNCTION(NAME, EXPR)                                                       \
  template <class X>                                                                            \
    requires floating_tile<X>                                                                   \
  X NAME(const X& x) {                                                                          \
    using T = detail::element_of<X>;                                                            \
    return detail::map<T>([](T v) { const float f = detail::up(v); return convert<T>(EXPR); }, x); \
  }
TILECC_FLOAT_FUNCTION(exp, std::exp(f))
TILECC_FLOAT_FUNCTION(exp2, std::exp2(f))
TILECC_FLOAT_FUNCTION(log, std::log(f))
TILECC_FLOAT_FUNCTION(log2, std::log2(f))
TILECC_FLOAT_FUNCTION(sqrt, std::sqrt(f))
TILECC_FLOAT_FUNCTION(rsqrt, 1.0f / std::sqrt(f))
TILECC_FLOAT_FUNCTION(sin, std::sin(f))
TILECC_FLOAT_FUNCTION(cos, std::cos(f))
TILECC_FLOAT_FUNCTION(tanh, std::tanh(f))
TILECC_FLOAT_FUNCTION(erf, std::erf(f))
TILECC_FLOAT_FUNCTION(sigmoid, 1.0f / (1.0f + std::exp(-f)))
TILECC_FLOAT_FUNCTION(floor, std::floor(f))
TILECC_FLOAT_FUNCTION(ceil, std::ceil(f))
#undef TILECC_FLOAT_FUNCTION

// ---- shape operations --------------------------------------------------------------------------

namespace detail {

template <shape_t S, int Axis>
constexpr shape_t insert_axis() {
  shape_t r;
  r.rank = S.rank + 1;
  for (int i = 0, j = 0; i < r.rank; ++i) r.ext[i] = (i == Axis) ? 1 : S.ext[j++];
  return r;
}

template <shape_t S, int Axis>
constexpr shape_t remove_axis() {
  shape_t r;
  r.rank = S.rank - 1;
  for (int i = 0, j = 0; i < S.rank; ++i)
    if (i != Axis) r.ext[j++] = S.ext[i];
  return r;
}

}  // namespace detail

template <int Axis, class X>
concept valid_expand_axis = tile_value<X> && Axis >= 0 && Axis <= detail::shape_of<X>.rank && detail::shape_of<X>.rank < 3;

/// Insert an axis of extent 1 at position Axis.
template <int Axis, class X>
  requires valid_expand_axis<Axis, X>
auto expand_dims(const X& x) {
  auto r = detail::tile_for<detail::element_of<X>, detail::insert_axis<detail::shape_of<X>, Axis>()>::make();
  for (int i = 0; i < X::size; ++i) r.data[i] = x.data[i];
  return r;
}

template <class X>
concept rank_1_tile = tile_value<X> && detail::shape_of<X>.rank == 1;

/// [N] → [N, 1]
template <class X>
  requires rank_1_tile<X>
auto col(const X& x) {
  return expand_dims<1>(x);
}
/// [N] → [1, N]
template <class X>
  requires rank_1_tile<X>
auto row(const X& x) {
  return expand_dims<0>(x);
}

namespace detail {
// Shape of x seen at rank R: lower ranks align to the right (NumPy), scalars are all ones.
template <class X, int R>
constexpr shape_t padded_shape() {
  constexpr shape_t s = shape_of<X>;
  shape_t r;
  r.rank = R;
  for (int i = 0; i < s.rank; ++i) r.ext[R - s.rank + i] = s.ext[i];
  return r;
}
}  // namespace detail

template <class X, int... D>
concept broadcastable_to =
    (tile_value<X> || scalar_value<X>) && detail::shape_of<X>.rank <= static_cast<int>(sizeof...(D)) &&
    detail::broadcasts_to(detail::padded_shape<X, static_cast<int>(sizeof...(D))>(), detail::make_shape<D...>());

/// Broadcast x (a tile of equal or lower rank, or a scalar) to shape D...
template <int... D, class X>
  requires tile_rank_is_1_to_3<D...> && tile_extents_are_powers_of_two<D...> && broadcastable_to<X, D...>
auto broadcast_to(const X& x) {
  using T = detail::element_of<X>;
  constexpr detail::shape_t S = detail::make_shape<D...>();
  constexpr detail::shape_t P = detail::padded_shape<X, S.rank>();
  tile<T, D...> r;
  for (int i = 0; i < S.size(); ++i) {
    if constexpr (!tile_value<X>) {
      r.data[i] = x;
    } else {
      int flat = i, idx = 0, mul = 1;
      for (int k = S.rank - 1; k >= 0; --k) {
        const int c = flat % S.ext[k];
        flat /= S.ext[k];
        if (P.ext[k] != 1) idx += c * mul;
        mul *= P.ext[k];
      }
      r.data[i] = x.data[idx];
    }
  }
  return r;
}

template <class X, int... D>
concept same_element_count = tile_value<X> && detail::shape_of<X>.size() == (D * ...);

/// Same elements, new shape (row-major order kept).
template <int... D, class X>
  requires tile_rank_is_1_to_3<D...> && tile_extents_are_powers_of_two<D...> && same_element_count<X, D...>
auto reshape(const X& x) {
  tile<detail::element_of<X>, D...> r;
  for (int i = 0; i < X::size; ++i) r.data[i] = x.data[i];
  return r;
}

template <class X>
concept rank_2_tile = tile_value<X> && detail::shape_of<X>.rank == 2;

/// Transpose of a rank-2 tile.
template <class X>
  requires rank_2_tile<X>
auto trans(const X& x) {
  constexpr int M = detail::shape_of<X>.ext[0], N = detail::shape_of<X>.ext[1];
  tile<detail::element_of<X>, N, M> r;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) r.data[j * M + i] = x.data[i * N + j];
  return r;
}

// ---- memory ------------------------------------------------------------------------------------

template <class M, class P>
concept broadcasts_to_pointer_shape =
    (!tile_value<M>) || detail::broadcasts_to(detail::shape_of<M>, detail::shape_of<P>);

/// A value tile for a pointer tile must have the pointee's element type (use cast<U>);
/// a scalar converts.
template <class V, class P>
concept value_matches_pointee =
    scalar_value<V> || (tile_value<V> && std::is_same_v<detail::element_of<V>, detail::pointee_t<detail::element_of<P>>>);

template <class P>
concept writable_pointer = !std::is_const_v<std::remove_pointer_t<detail::element_of<P>>>;

template <class P>
  requires pointer_tile<P>
auto load(const P& ptrs) {
  using T = detail::pointee_t<detail::element_of<P>>;
  return detail::map<T>([](auto p) { return static_cast<T>(*p); }, ptrs);
}

/// Lanes whose mask is false are not accessed and give `other` (default 0).
template <class P, class M, class O = int>
  requires pointer_tile<P> && mask_operand<M> && broadcasts_to_pointer_shape<M, P> &&
           value_matches_pointee<O, P> && broadcasts_to_pointer_shape<O, P>
auto load(const P& ptrs, const M& mask, const O& other = 0) {
  using T = detail::pointee_t<detail::element_of<P>>;
  return detail::map<T>([](auto p, bool m, auto o) { return m ? static_cast<T>(*p) : convert<T>(o); }, ptrs, mask,
                        other);
}

template <class T>
  requires element_type<std::remove_cv_t<T>>
std::remove_cv_t<T> load(T* p) {
  return *p;
}

template <class T, class O = int>
  requires element_type<std::remove_cv_t<T>> && scalar_value<O>
std::remove_cv_t<T> load(T* p, bool mask, O other = 0) {
  return mask ? *p : convert<std::remove_cv_t<T>>(other);
}

template <class P, class V>
  requires pointer_tile<P> && writable_pointer<P> && value_matches_pointee<V, P> && broadcasts_to_pointer_shape<V, P>
void store(const P& ptrs, const V& values) {
  using T = detail::pointee_t<detail::element_of<P>>;
  constexpr detail::shape_t S = detail::shape_of<P>;
  for (int i = 0; i < S.size(); ++i) *ptrs.data[i] = convert<T>(detail::pick<S>(values, i));
}

/// Lanes whose mask is false are not written.
template <class P, class V, class M>
  requires pointer_tile<P> && writable_pointer<P> && value_matches_pointee<V, P> &&
           broadcasts_to_pointer_shape<V, P> && mask_operand<M> && broadcasts_to_pointer_shape<M, P>
void store(const P& ptrs, const V& values, const M& mask) {
  using T = detail::pointee_t<detail::element_of<P>>;
  constexpr detail::shape_t S = detail::shape_of<P>;
  for (int i = 0; i < S.size(); ++i)
    if (detail::pick<S>(mask, i)) *ptrs.data[i] = convert<T>(detail::pick<S>(values, i));
}

template <class T, class V>
  requires element_type<T> && (!std::is_const_v<T>) && scalar_value<V>
void store(T* p, V v) {
  *p = convert<T>(v);
}

template <class T, class V>
  requires element_type<T> && (!std::is_const_v<T>) && scalar_value<V>
void store(T* p, V v, bool mask) {
  if (mask) *p = convert<T>(v);
}

template <class T>
concept atomic_add_element = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16> ||
                             std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
                             std::is_same_v<T, std::int64_t>;

/// Atomically adds values at ptrs (masked lanes untouched) and returns the old values
/// (0 in masked-off lanes).
template <class P, class V, class M = bool>
  requires pointer_tile<P> && writable_pointer<P> && atomic_add_element<detail::pointee_t<detail::element_of<P>>> &&
           value_matches_pointee<V, P> && broadcasts_to_pointer_shape<V, P> && mask_operand<M> &&
           broadcasts_to_pointer_shape<M, P>
auto atomic_add(const P& ptrs, const V& values, const M& mask = true) {
  using T = detail::pointee_t<detail::element_of<P>>;
  constexpr detail::shape_t S = detail::shape_of<P>;
  auto old = detail::tile_for<T, S>::make();
  for (int i = 0; i < S.size(); ++i) {
    if (!detail::pick<S>(mask, i)) continue;
    T* p = ptrs.data[i];
    old.data[i] = *p;
    *p = detail::op_add{}(*p, convert<T>(detail::pick<S>(values, i)));
  }
  return old;
}

template <class T, class V>
  requires atomic_add_element<T> && scalar_value<V>
T atomic_add(T* p, V v) {
  const T old = *p;
  *p = detail::op_add{}(*p, convert<T>(v));
  return old;
}

/// Orders this program's global stores before its later loads (Triton's debug_barrier).
/// The host twin runs a program's statements in order, so this is a no-op there.
inline void barrier() {}

// ---- block pointers ------------------------------------------------------------------------

/// A braced list of R 64-bit integers: {size0, size1}.
template <int R>
struct index_list {
  std::int64_t v[R];
};

/// Structured access to a B0 x B1 (x B2) window of a strided array of `shape` elements,
/// starting at `offsets`. Loads pad elements outside [0, shape) with zero; stores skip them.
template <class T, int... B>
  requires element_type<std::remove_cv_t<T>> && tile_rank_is_1_to_3<B...> && tile_extents_are_powers_of_two<B...>
struct block_ptr {
  static constexpr int rank = static_cast<int>(sizeof...(B));
  T* base;
  std::int64_t shape[rank];
  std::int64_t strides[rank];
  std::int64_t offsets[rank];
};

template <int... B, class T>
  requires element_type<std::remove_cv_t<T>> && tile_rank_is_1_to_3<B...> && tile_extents_are_powers_of_two<B...>
block_ptr<T, B...> make_block_ptr(T* base, index_list<sizeof...(B)> shape, index_list<sizeof...(B)> strides,
                                  index_list<sizeof...(B)> offsets) {
  block_ptr<T, B...> bp;
  bp.base = base;
  for (int k = 0; k < static_cast<int>(sizeof...(B)); ++k) {
    bp.shape[k] = shape.v[k];
    bp.strides[k] = strides.v[k];
    bp.offsets[k] = offsets.v[k];
  }
  return bp;
}

/// A copy moved by `delta` elements along each axis.
template <class T, int... B>
block_ptr<T, B...> advance(block_ptr<T, B...> bp, index_list<sizeof...(B)> delta) {
  for (int k = 0; k < static_cast<int>(sizeof...(B)); ++k) bp.offsets[k] += delta.v[k];
  return bp;
}

namespace detail {
// Calls f(flat index in the block, in-bounds, element pointer) for every element of the block.
template <class T, int... B, class F>
void for_each_block_element(const block_ptr<T, B...>& bp, F f) {
  constexpr shape_t S = make_shape<B...>();
  for (int i = 0; i < S.size(); ++i) {
    int rest = i;
    bool in = true;
    std::int64_t off = 0;
    for (int k = S.rank - 1; k >= 0; --k) {
      const std::int64_t pos = bp.offsets[k] + rest % S.ext[k];
      rest /= S.ext[k];
      in = in && pos >= 0 && pos < bp.shape[k];
      off += pos * bp.strides[k];
    }
    f(i, in, in ? offset_pointer(bp.base, off) : bp.base);
  }
}
}  // namespace detail

template <class T, int... B>
tile<std::remove_cv_t<T>, B...> load(const block_ptr<T, B...>& bp) {
  tile<std::remove_cv_t<T>, B...> r;
  detail::for_each_block_element(bp, [&](int i, bool in, T* p) {
    if (in) r.data[i] = *p;
  });
  return r;
}

template <class T, int... B, class V>
  requires(!std::is_const_v<T>) && (scalar_value<V> || std::is_same_v<V, tile<T, B...>>)
void store(const block_ptr<T, B...>& bp, const V& values) {
  constexpr detail::shape_t S = detail::make_shape<B...>();
  detail::for_each_block_element(bp, [&](int i, bool in, T* p) {
    if (in) *p = convert<T>(detail::pick<S>(values, i));
  });
}

// ---- hints (promises; the host twin checks them) -----------------------------------------------

template <class X>
concept hintable = integer_operand<X> || pointer_operand<X>;

namespace detail {
template <class V>
std::int64_t hint_value(V v) {
  if constexpr (std::is_pointer_v<V>)
    return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(v));
  else
    return static_cast<std::int64_t>(v);
}
}  // namespace detail

/// Promise that every value of x is a multiple of n (for pointers: the address in bytes).
template <class X>
  requires hintable<X>
X multiple_of(const X& x, std::int64_t n, std::source_location loc = std::source_location::current()) {
  if (n <= 0) detail::fail(loc, "multiple_of: the divisor must be positive, got %lld", static_cast<long long>(n));
  if constexpr (tile_value<X>) {
    for (int i = 0; i < X::size; ++i)
      if (detail::hint_value(x.data[i]) % n != 0)
        detail::fail(loc, "broken promise multiple_of(..., %lld): element %d is %lld", static_cast<long long>(n), i,
                     static_cast<long long>(detail::hint_value(x.data[i])));
  } else {
    if (detail::hint_value(x) % n != 0)
      detail::fail(loc, "broken promise multiple_of(..., %lld): the value is %lld", static_cast<long long>(n),
                   static_cast<long long>(detail::hint_value(x)));
  }
  return x;
}

/// Promise that along the last axis, each run of n values starting at a multiple of n is
/// contiguous (v, v+1, ...; for pointers, consecutive elements).
template <class X>
  requires tile_value<X> && hintable<X>
X max_contiguous(const X& x, int n, std::source_location loc = std::source_location::current()) {
  if (n <= 0) detail::fail(loc, "max_contiguous: the run length must be positive, got %d", n);
  constexpr detail::shape_t S = detail::shape_of<X>;
  const int last = S.ext[S.rank - 1];
  for (int i = 0; i < X::size; ++i) {
    const int j = i % last, start = i - j % n;
    if (start == i) continue;
    const auto expect = static_cast<std::int64_t>(i - start);
    std::int64_t got;
    if constexpr (pointer_element<detail::element_of<X>>)
      got = static_cast<std::int64_t>(x.data[i] - x.data[start]);
    else
      got = static_cast<std::int64_t>(x.data[i]) - static_cast<std::int64_t>(x.data[start]);
    if (got != expect)
      detail::fail(loc, "broken promise max_contiguous(..., %d): element %d is %lld past element %d, not %lld", n, i,
                   static_cast<long long>(got), start, static_cast<long long>(expect));
  }
  return x;
}

// ---- reductions --------------------------------------------------------------------------------

namespace detail {

template <class T>
using sum_t = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float,
                                 std::conditional_t<(std::is_same_v<T, bool> || std::is_same_v<T, std::int8_t> ||
                                                     std::is_same_v<T, std::uint8_t>),
                                                    std::int32_t, T>>;

// Reduce along Axis: f(first element pointer, count, stride) gives one output value.
template <int Axis, class Out, class X, class F>
auto reduce_axis(const X& x, F f) {
  constexpr shape_t S = shape_of<X>;
  int outer = 1, inner = 1;
  for (int k = 0; k < Axis; ++k) outer *= S.ext[k];
  for (int k = Axis + 1; k < S.rank; ++k) inner *= S.ext[k];
  constexpr int n = S.ext[Axis];
  if constexpr (S.rank == 1) {
    return f(x.data, n, 1);
  } else {
    auto r = tile_for<Out, remove_axis<S, Axis>()>::make();
    for (int o = 0; o < outer; ++o)
      for (int i = 0; i < inner; ++i) r.data[o * inner + i] = f(x.data + o * n * inner + i, n, inner);
    return r;
  }
}

// argmax/argmin: the first index of the extreme value; NaN is ignored as in max/min
// (an all-NaN run gives 0).
template <bool Max, class T>
int arg_extreme(const T* p, int n, int stride) {
  int best = -1;
  for (int k = 0; k < n; ++k) {
    const auto v = up(p[k * stride]);
    if (v != v) continue;
    if (best < 0) {
      best = k;
      continue;
    }
    const auto b = up(p[best * stride]);
    if (Max ? (v > b) : (v < b)) best = k;
  }
  return best < 0 ? 0 : best;
}

}  // namespace detail

/// Axis = -1 (the default) is allowed for rank-1 tiles only: `sum(t)` reduces the one axis.
template <int Axis, class X>
concept valid_reduction_axis =
    tile_value<X> && ((Axis == -1 && detail::shape_of<X>.rank == 1) || (Axis >= 0 && Axis < detail::shape_of<X>.rank));

/// Sum along Axis; half/bfloat16 accumulate in float, 8-bit integers and bool in int.
template <int Axis = -1, class X>
  requires valid_reduction_axis<Axis, X> && (numeric_tile<X> || std::is_same_v<detail::element_of<X>, bool>)
auto sum(const X& x) {
  using T = detail::element_of<X>;
  using A = detail::sum_t<T>;
  return detail::reduce_axis<(Axis < 0 ? 0 : Axis), A>(x, [](const T* p, int n, int s) {
    A acc = convert<A>(0);
    for (int k = 0; k < n; ++k) acc = detail::op_add{}(acc, convert<A>(p[k * s]));
    return acc;
  });
}

/// Maximum along Axis, ignoring NaN (as fmax).
template <int Axis = -1, class X>
  requires valid_reduction_axis<Axis, X> && numeric_tile<X>
auto max(const X& x) {
  using T = detail::element_of<X>;
  return detail::reduce_axis<(Axis < 0 ? 0 : Axis), T>(x, [](const T* p, int n, int s) {
    T acc = p[0];
    for (int k = 1; k < n; ++k) acc = detail::op_max{}(acc, p[k * s]);
    return acc;
  });
}

/// Minimum along Axis, ignoring NaN (as fmin).
template <int Axis = -1, class X>
  requires valid_reduction_axis<Axis, X> && numeric_tile<X>
auto min(const X& x) {
  using T = detail::element_of<X>;
  return detail::reduce_axis<(Axis < 0 ? 0 : Axis), T>(x, [](const T* p, int n, int s) {
    T acc = p[0];
    for (int k = 1; k < n; ++k) acc = detail::op_min{}(acc, p[k * s]);
    return acc;
  });
}

/// Index (int) of the first maximum along Axis.
template <int Axis = -1, class X>
  requires valid_reduction_axis<Axis, X> && numeric_tile<X>
auto argmax(const X& x) {
  using T = detail::element_of<X>;
  return detail::reduce_axis<(Axis < 0 ? 0 : Axis), int>(
      x, [](const T* p, int n, int s) { return detail::arg_extreme<true>(p, n, s); });
}

/// Index (int) of the first minimum along Axis.
template <int Axis = -1, class X>
  requires valid_reduction_axis<Axis, X> && numeric_tile<X>
auto argmin(const X& x) {
  using T = detail::element_of<X>;
  return detail::reduce_axis<(Axis < 0 ? 0 : Axis), int>(
      x, [](const T* p, int n, int s) { return detail::arg_extreme<false>(p, n, s); });
}

// ---- dot -----------------------------------------------------------------------------------

enum class precision { ieee, tf32 };

template <class T>
concept dot_element = std::is_same_v<T, half> || std::is_same_v<T, bfloat16> || std::is_same_v<T, float> ||
                      std::is_same_v<T, std::int8_t>;

namespace detail {
template <class T>
using dot_acc_t = std::conditional_t<std::is_same_v<T, std::int8_t>, std::int32_t, float>;
}

template <class A, class B>
concept dot_ranks_are_2 = rank_2_tile<A> && rank_2_tile<B>;

template <class A, class B>
concept dot_inner_extents_match = detail::shape_of<A>.ext[1] == detail::shape_of<B>.ext[0];

template <class A, class B>
concept dot_extents_at_least_16 =
    detail::shape_of<A>.ext[0] >= 16 && detail::shape_of<A>.ext[1] >= 16 && detail::shape_of<B>.ext[1] >= 16;

/// a [M, K] and b [K, N] of one element type (half, bfloat16, float or int8_t), M, N, K ≥ 16.
template <class A, class B>
concept dot_operands = dot_ranks_are_2<A, B> && tile_element_types_match<A, B> &&
                       dot_element<detail::element_of<A>> && dot_inner_extents_match<A, B> &&
                       dot_extents_at_least_16<A, B>;

template <precision P, class A>
concept dot_precision_fits = P == precision::ieee || std::is_same_v<detail::element_of<A>, float>;

/// The accumulator of dot(a, b, acc): [M, N] of float (int for int8_t inputs).
template <class C, class A, class B>
concept dot_accumulator =
    std::is_same_v<C, tile<detail::dot_acc_t<detail::element_of<A>>, detail::shape_of<A>.ext[0], detail::shape_of<B>.ext[1]>>;

/// acc + a·b. half/bfloat16 accumulate in float, int8_t in int; float is IEEE fp32 unless
/// dot<precision::tf32> rounds the inputs to TF32 as the tensor cores do.
template <precision P = precision::ieee, class A, class B, class C>
  requires dot_operands<A, B> && dot_precision_fits<P, A> && dot_accumulator<C, A, B>
C dot(const A& a, const B& b, const C& acc) {
  constexpr int M = detail::shape_of<A>.ext[0], K = detail::shape_of<A>.ext[1], N = detail::shape_of<B>.ext[1];
  using Acc = detail::dot_acc_t<detail::element_of<A>>;
  auto in = [](auto v) {
    if constexpr (P == precision::tf32)
      return detail::round_to_tf32(v);
    else
      return convert<Acc>(v);
  };
  C r = acc;
  // Row of b converted once per k: the host twin should not be needlessly slow on big tiles.
  Acc bk[N];
  for (int k = 0; k < K; ++k) {
    for (int j = 0; j < N; ++j) bk[j] = in(b.data[k * N + j]);
    for (int i = 0; i < M; ++i) {
      const Acc av = in(a.data[i * K + k]);
      Acc* out = r.data + i * N;
      for (int j = 0; j < N; ++j) out[j] = detail::op_add{}(out[j], detail::op_mul{}(av, bk[j]));
    }
  }
  return r;
}

template <precision P = precision::ieee, class A, class B>
  requires dot_operands<A, B> && dot_precision_fits<P, A>
auto dot(const A& a, const B& b) {
  using C = tile<detail::dot_acc_t<detail::element_of<A>>, detail::shape_of<A>.ext[0], detail::shape_of<B>.ext[1]>;
  return dot<P>(a, b, C{});
}

// ---- programs and scalars ----------------------------------------------------------------------

namespace host {
namespace detail {
struct program_state {
  int id[3];
  int count[3];
  bool active;
};
inline thread_local program_state current_program{};
}  // namespace detail
}  // namespace host

/// This program's index along axis 0, 1 or 2.
inline int program_id(int axis, std::source_location loc = std::source_location::current()) {
  const auto& p = host::detail::current_program;
  if (!p.active) detail::fail(loc, "program_id called outside a kernel launch");
  if (axis < 0 || axis > 2) detail::fail(loc, "program_id axis must be 0, 1 or 2, got %d", axis);
  return p.id[axis];
}

/// The grid's extent along axis 0, 1 or 2.
inline int num_programs(int axis, std::source_location loc = std::source_location::current()) {
  const auto& p = host::detail::current_program;
  if (!p.active) detail::fail(loc, "num_programs called outside a kernel launch");
  if (axis < 0 || axis > 2) detail::fail(loc, "num_programs axis must be 0, 1 or 2, got %d", axis);
  return p.count[axis];
}

/// ceil(a / b) for non-negative integers.
template <class A, class B>
  requires std::is_integral_v<A> && std::is_integral_v<B>
constexpr auto cdiv(A a, B b) {
  return (a + b - 1) / b;
}

/// Scalar max/min (floating values ignore NaN as fmax/fmin).
template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B>
constexpr auto max(A a, B b) {
  using C = std::common_type_t<detail::element_of<A>, detail::element_of<B>>;
  if constexpr (std::is_floating_point_v<C>)
    return static_cast<C>(std::fmax(static_cast<C>(a), static_cast<C>(b)));
  else
    return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}
template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B>
constexpr auto min(A a, B b) {
  using C = std::common_type_t<detail::element_of<A>, detail::element_of<B>>;
  if constexpr (std::is_floating_point_v<C>)
    return static_cast<C>(std::fmin(static_cast<C>(a), static_cast<C>(b)));
  else
    return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}

// ---- the host twin's launcher ------------------------------------------------------------------

namespace host {

/// A grid of programs: `128` or `{x, y, z}`.
struct grid {
  int x = 1, y = 1, z = 1;
  grid(int x_) : x(x_) {}
  grid(int x_, int y_, int z_ = 1) : x(x_), y(y_), z(z_) {}
};

/// Runs kernel(args...) once for every program of the grid, one after another, with
/// program_id/num_programs set. Contract violations surface as tilecc::contract_violation.
template <class... P, class... A>
  requires(sizeof...(P) == sizeof...(A))
void launch(grid g, void (*kernel)(P...), A&&... args) {
  if (g.x < 0 || g.y < 0 || g.z < 0)
    tilecc::detail::fail(std::source_location::current(), "launch: negative grid {%d, %d, %d}", g.x, g.y, g.z);
  struct restore {
    detail::program_state saved = detail::current_program;
    ~restore() { detail::current_program = saved; }
  } guard;
  auto& p = detail::current_program;
  p.count[0] = g.x;
  p.count[1] = g.y;
  p.count[2] = g.z;
  p.active = true;
  for (int z = 0; z < g.z; ++z)
    for (int y = 0; y < g.y; ++y)
      for (int x = 0; x < g.x; ++x) {
        p.id[0] = x;
        p.id[1] = y;
        p.id[2] = z;
        kernel(args...);
      }
}

}  // namespace host
}  // namespace tilecc
