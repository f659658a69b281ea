// tilecc: the core of the tile language — the tile type, shapes, operand classes, the element
// type an elementwise operation computes in (integer promotion), and the named rules that
// misuse is reported by. Included by <tilecc/tile.hpp>; not meant to be included alone.
//
// How misuse is reported. Every operation accepts any operands of the right *kind* (a tile
// where a tile is expected) and then checks the language's rules one by one in its body with
// static_assert, each message starting with the rule's name:
//
//   tilecc/elementwise.hpp:120:7: error: static assertion failed: shapes_broadcast: ...
//
// so that the first error a compiler prints names the broken rule, on GCC as on Clang, and the
// instantiation note that follows (Clang) or precedes it (GCC: "required from here") points at
// the user's line. Constraining the overloads instead (requires-clauses) made the first error
// "no matching function" and buried the rule among the candidates. Only the first broken rule
// of an operation is asserted, and a failed operation returns void, so one misuse gives one
// rule error (plus, at most, "variable has incomplete type void" at the user's line).
// The rules are C++20 concepts: kernel authors may use them in their own constraints.
#pragma once

#if __cplusplus < 202002L
#error "tilecc kernels need C++20 (-std=c++20)"
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <type_traits>
#include <utility>
#if __has_include(<source_location>)
#include <source_location>
#endif

#include "tilecc/numeric.hpp"

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

#if defined(__cpp_lib_source_location)
using source_location = std::source_location;
#else
// Clang before 15 with libstdc++ has <source_location> but not the builtin it is made of
// (__builtin_source_location), so the header declares nothing. The compiler builtins below
// give the same call-site information (a default argument's builtins are evaluated where the
// function using the default is called). GCC has no __builtin_COLUMN; it never gets here,
// since every GCC with C++20 has std::source_location.
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE(),
#if defined(__has_builtin) && __has_builtin(__builtin_COLUMN)
                                           unsigned column = __builtin_COLUMN()
#else
                                           unsigned column = 0
#endif
                                               ) noexcept {
    source_location l;
    l.file_ = file;
    l.line_ = line;
    l.column_ = column;
    return l;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr unsigned line() const noexcept { return line_; }
  constexpr unsigned column() const noexcept { return column_; }

 private:
  const char* file_ = "";
  unsigned line_ = 0, column_ = 0;
};
#endif

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
[[noreturn]] void fail(const source_location& loc, const char* fmt, A... args) {
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

template <int... D>
constexpr int product() {
  int p = 1;
  ((p *= D), ...);
  return p;
}

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
  const int e[] = {D..., 0};
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

/// A tile has 1, 2 or 3 axes.
template <int... D>
concept tile_rank_is_1_to_3 = sizeof...(D) >= 1 && sizeof...(D) <= 3;

/// Every extent of a tile is a power of two.
template <int... D>
concept tile_extents_are_powers_of_two = (detail::is_pow2(D) && ...);

/// What a tile may hold: an element type (bool, int8_t, uint8_t, int32_t, uint32_t, int64_t,
/// float, half, bfloat16) or a pointer to one.
template <class T>
concept tile_element_type = element_type<T> || pointer_element<T>;

/// A tile: an immutable-by-convention block of values, row-major, with a static shape.
/// `data` and operator() are for host code (tests, debugging); kernels use the operations.
/// The rules on T and D are static_asserts rather than constraints so that naming a bad tile
/// type reports the rule first (see the top of this file).
template <class T, int... D>
struct tile {
  static_assert(tile_element_type<T>,
                "tile_element_type: a tile holds bool, int8_t, uint8_t, int32_t, uint32_t, int64_t, float, half, "
                "bfloat16, or pointers to those (double is not an element type: use float)");
  static_assert(tile_rank_is_1_to_3<D...>, "tile_rank_is_1_to_3: a tile has 1, 2 or 3 extents");
  static_assert(tile_extents_are_powers_of_two<D...>, "tile_extents_are_powers_of_two: every tile extent is a power of two");

  using element_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(D));
  static constexpr int size = detail::product<D...>();
  static constexpr int extents[rank > 0 ? rank : 1] = {D...};

  // (A broken rule above must not cascade into "array of negative size" errors.)
  T data[size > 0 ? size : 1]{};

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

/// A tile of any element type and shape.
template <class X>
concept tile_value = detail::is_tile_v<X>;

/// A scalar that may appear beside tiles: any C++ arithmetic type, half or bfloat16.
template <class X>
concept scalar_value =
    std::is_arithmetic_v<X> || std::is_same_v<X, half> || std::is_same_v<X, bfloat16>;

namespace detail {

// The element type a scalar takes in kernel code: double is float, integers narrower than 64
// bits are int (unsigned stays uint32_t), 64-bit integers are int64_t.
template <class S>
auto scalar_element_probe() {
  if constexpr (std::is_same_v<S, bool> || std::is_same_v<S, half> || std::is_same_v<S, bfloat16> ||
                std::is_pointer_v<S> || !std::is_arithmetic_v<S>)
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

// ---- integer promotion (contract v1) ----
//
// Tiles combine when their element types are equal, or when both are integers of different
// widths: then the wider type wins (tile<int> + tile<int64_t> is a tile<int64_t>). Integers of
// one width and different signedness (int and uint32_t, int8_t and uint8_t) do not combine:
// which one should win is a guess, so the author casts.
template <class A, class B>
inline constexpr bool elements_combine =
    std::is_same_v<A, B> || (integer_element<A> && integer_element<B> && sizeof(A) != sizeof(B));

template <class E, class... X>
inline constexpr bool combines_with_tiles = ((!is_tile_v<X> || elements_combine<E, element_of<X>>) && ...);

template <class... X>
inline constexpr bool tile_elements_agree = ((!is_tile_v<X> || combines_with_tiles<element_of<X>, X...>) && ...);

// The element type the tile operands promote to: the wider of two integer types, else the first
// tile's type (when tile_elements_agree holds, every pair is equal or promotes this way).
template <class Acc, class E>
struct promote_step_impl {
  using type = std::conditional_t<integer_element<Acc> && integer_element<E> && (sizeof(E) > sizeof(Acc)), E, Acc>;
};
template <class E>
struct promote_step_impl<void, E> {
  using type = E;
};
template <class Acc, class E>
using promote_step = typename promote_step_impl<Acc, E>::type;

template <class Acc, class... X>
struct promoted_tile_element {
  using type = Acc;
};
template <class Acc, class X, class... R>
struct promoted_tile_element<Acc, X, R...> {
  using type = typename promoted_tile_element<
      std::conditional_t<is_tile_v<X>, promote_step<Acc, typename element_of_impl<X>::type>, Acc>, R...>::type;
};

template <class... X>
inline constexpr bool has_float_scalar = ((!is_tile_v<X> && float_element<element_of<X>>) || ...);

template <class... X>
inline constexpr bool has_int64_scalar = ((!is_tile_v<X> && std::is_same_v<element_of<X>, std::int64_t>) || ...);

// The one type all operands of an elementwise operation convert to:
//   - the tiles' (promoted) element type;
//   - an integer tile with a floating scalar computes in float;
//   - an integer tile narrower than 64 bits with a 64-bit integer scalar computes in int64_t
//     (v0 narrowed the scalar to 32 bits: silently wrong offsets past 2^31). Scalars narrower
//     than 64 bits never widen a tile: C++ gives every such scalar, literals included, the type
//     int, so their width says nothing about intent (tile<int8_t> * 2 stays tile<int8_t>);
//   - scalars alone use their usual common type.
template <class... X>
auto compute_probe() {
  if constexpr (!(is_tile_v<X> || ...)) {
    return std::type_identity<std::common_type_t<element_of<X>...>>{};
  } else {
    using T = typename promoted_tile_element<void, X...>::type;
    if constexpr (integer_element<T> && has_float_scalar<X...>)
      return std::type_identity<float>{};
    else if constexpr (integer_element<T> && sizeof(T) < 8 && has_int64_scalar<X...>)
      return std::type_identity<std::int64_t>{};
    else
      return std::type_identity<T>{};
  }
}

template <class... X>
using compute_t = typename decltype(compute_probe<X...>())::type;

}  // namespace detail

// ---- the rules -------------------------------------------------------------------------------
// Each is a concept; operations check them in order and report the first that fails.

/// Every operand of an elementwise operation is a tile or a scalar (a number, bool, half,
/// bfloat16).
template <class... X>
concept tile_or_scalar = ((tile_value<X> || scalar_value<X>) && ...);

/// Tiles combined elementwise have the same element type (use cast<U>), except integer tiles of
/// different widths, which promote to the wider type.
template <class... X>
concept tile_element_types_match = detail::tile_elements_agree<X...>;

/// Tiles combined elementwise broadcast like NumPy over equal ranks (each extent equal or 1).
template <class... X>
concept shapes_broadcast = detail::common_shape<X...>().ok;

template <class... X>
concept has_a_tile = (tile_value<X> || ...);

/// Operands of an elementwise operation: at least one tile, the rest tiles or scalars, element
/// types that match or promote, shapes that broadcast.
template <class... X>
concept elementwise_operands =
    has_a_tile<X...> && tile_or_scalar<X...> && tile_element_types_match<X...> && shapes_broadcast<X...>;

/// + - * / maximum minimum fma: numbers (not bool, not pointers).
template <class... X>
concept arithmetic_operands = elementwise_operands<X...> && numeric_element<detail::compute_t<X...>>;

/// & | ^: integers or bool.
template <class... X>
concept bitwise_operands = elementwise_operands<X...> &&
                           (integer_element<detail::compute_t<X...>> || std::is_same_v<detail::compute_t<X...>, bool>);

/// % << >>: integers.
template <class... X>
concept integer_operands = elementwise_operands<X...> && integer_element<detail::compute_t<X...>>;

/// == != < <= > >=: element types (not pointers).
template <class... X>
concept comparable_operands = elementwise_operands<X...> && element_type<detail::compute_t<X...>>;

/// pow: every tile operand is floating (float, half, bfloat16).
template <class... X>
concept floating_operands = elementwise_operands<X...> && float_element<detail::compute_t<X...>> &&
                            ((!tile_value<X> || float_element<detail::element_of<X>>) && ...);

/// A tile of pointers, or a plain pointer to an element type.
template <class X>
concept pointer_operand = (tile_value<X> && pointer_element<detail::element_of<X>>) || pointer_element<std::decay_t<X>>;

/// A tile of integers, or an integer scalar (not bool).
template <class X>
concept integer_operand = (tile_value<X> && integer_element<detail::element_of<X>>) ||
                          (std::is_integral_v<X> && !std::is_same_v<X, bool>);

/// `pointers + offsets`, in elements: a pointer (or tile of pointers) and integer offsets.
template <class P, class I>
concept pointer_offset_operands =
    has_a_tile<P, I> && pointer_operand<P> && integer_operand<I> && shapes_broadcast<P, I>;

/// Math functions (exp, round, ...) need floating tiles: cast integer tiles first.
template <class X>
concept floating_tile = tile_value<X> && float_element<detail::element_of<X>>;

/// Negation, abs and the max/min/argmax/argmin reductions need tiles of numbers.
template <class X>
concept numeric_tile = tile_value<X> && numeric_element<detail::element_of<X>>;

/// ~ and ! need tiles of integers or bool.
template <class X>
concept integer_or_bool_tile =
    tile_value<X> && (integer_element<detail::element_of<X>> || std::is_same_v<detail::element_of<X>, bool>);

/// sum, cumsum, cumprod: tiles of numbers or bool (bool counts as 0/1).
template <class X>
concept summable_tile = numeric_tile<X> || (tile_value<X> && std::is_same_v<detail::element_of<X>, bool>);

/// load, store and atomic_add address memory through a tile of pointers.
template <class X>
concept pointer_tile = tile_value<X> && pointer_element<detail::element_of<X>>;

/// A mask is a bool scalar or a tile of bool (comparisons give those).
template <class X>
concept mask_operand = std::is_same_v<X, bool> || (tile_value<X> && std::is_same_v<detail::element_of<X>, bool>);

namespace detail {
// Any pointer or tile of pointers, also to types that are not element types (double*): such
// operands take the pointer rules, whose first is that the pointee is an element type.
template <class X>
inline constexpr bool pointer_like =
    std::is_pointer_v<std::decay_t<X>> || (is_tile_v<X> && std::is_pointer_v<element_of<X>>);

// The rule an elementwise operation adds to the shared ones (none: only the shared ones).
enum class operand_rule { none, arithmetic, bitwise, integer, comparable, floating };

// The checks of elementwise operations: the operands are tiles or scalars, their element types
// match (or promote), their shapes broadcast, and the operation's own rule R holds. Reports the
// first broken rule. (One function, not one per rule: each level of calls is one more
// "required from" line before GCC's error.)
template <operand_rule R, class... X>
constexpr bool elementwise_rules_hold() {
  if constexpr (!tile_or_scalar<X...>) {
    static_assert(tile_or_scalar<X...>,
                  "tile_or_scalar: operands of elementwise operations are tiles or scalars (numbers, bool, half, "
                  "bfloat16); pointer arithmetic takes integer offsets");
    return false;
  } else if constexpr (!tile_element_types_match<X...>) {
    static_assert(tile_element_types_match<X...>,
                  "tile_element_types_match: tiles combined elementwise need the same element type (use cast<U>); "
                  "only integer tiles of different widths promote to the wider one");
    return false;
  } else if constexpr (!shapes_broadcast<X...>) {
    static_assert(shapes_broadcast<X...>,
                  "shapes_broadcast: tiles combined elementwise broadcast like NumPy: equal ranks, each extent equal "
                  "or 1 (use col/row/expand_dims/broadcast_to)");
    return false;
  } else if constexpr (R == operand_rule::arithmetic) {
    static_assert(arithmetic_operands<X...>,
                  "arithmetic_operands: + - * / maximum minimum fma need numbers, not bool (use & | ^ on masks, or "
                  "cast<int>)");
    return arithmetic_operands<X...>;
  } else if constexpr (R == operand_rule::bitwise) {
    static_assert(bitwise_operands<X...>, "bitwise_operands: & | ^ need integers or bool");
    return bitwise_operands<X...>;
  } else if constexpr (R == operand_rule::integer) {
    static_assert(integer_operands<X...>, "integer_operands: % << >> need integers");
    return integer_operands<X...>;
  } else if constexpr (R == operand_rule::comparable) {
    static_assert(comparable_operands<X...>, "comparable_operands: comparisons need element types, not pointers");
    return comparable_operands<X...>;
  } else if constexpr (R == operand_rule::floating) {
    static_assert(floating_operands<X...>,
                  "floating_operands: pow needs floating tiles (float, half, bfloat16): cast integer tiles first");
    return floating_operands<X...>;
  } else {
    return true;
  }
}

// The pointer side of + and -: P is the pointer (tile), I the offsets.
template <class P, class I>
constexpr bool pointer_rules_hold() {
  if constexpr (!pointer_operand<P>) {
    static_assert(pointer_operand<P>,
                  "pointer_element: pointers in kernels point to element types (bool, int8_t, uint8_t, int32_t, "
                  "uint32_t, int64_t, float, half, bfloat16; not double)");
    return false;
  } else if constexpr (!integer_operand<I>) {
    static_assert(pointer_offset_operands<P, I>,
                  "pointer_offset_operands: a pointer (or tile of pointers) moves by integer offsets: ptr + int_tile, "
                  "ptr_tile + int, ptr_tile - int (no pointer differences, no floating offsets)");
    return false;
  } else if constexpr (!shapes_broadcast<P, I>) {
    static_assert(shapes_broadcast<P, I>,
                  "shapes_broadcast: pointers and offsets broadcast like NumPy: equal ranks, each extent equal or 1");
    return false;
  } else {
    return true;
  }
}
}  // namespace detail

}  // namespace tilecc
