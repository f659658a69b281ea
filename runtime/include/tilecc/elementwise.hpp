// tilecc: elementwise operations — operators, compound assignments, tile creation, casts,
// where/maximum/minimum/fma/pow and the math functions. Included by <tilecc/tile.hpp>.
#pragma once

#include "tilecc/core.hpp"

#include <cmath>
#include <limits>

namespace tilecc {

// ---- the elementwise engine ------------------------------------------------------------------

namespace detail {

// The GPU's flush to zero (fast_exp's ex2.approx.ftz, float atomics): values below the smallest
// normal float become zero of the same sign.
inline float flush_subnormal(float r) { return std::fabs(r) < std::numeric_limits<float>::min() ? std::copysign(0.0f, r) : r; }

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

// Every operand converts to the compute type (core.hpp: compute_t), then Op applies.
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
// pow in float (std::pow's float overload), rounded back for half/bfloat16.
struct op_pow {
  template <class C>
  C operator()(C a, C b) const {
    return convert<C>(std::pow(up(a), up(b)));
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

// Offsets are applied in 64 bits whatever their type, so tile<int> offsets never wrap here.
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
// Each operator takes any operands one of which is a tile; its body reports the first broken
// rule (core.hpp explains why) and otherwise computes.

/// `a + b`: numbers elementwise, or a pointer (tile) plus integer offsets (either order).
template <class A, class B>
  requires has_a_tile<A, B>
auto operator+(const A& a, const B& b) {
  if constexpr (detail::pointer_like<A>) {
    if constexpr (detail::pointer_rules_hold<A, B>()) return detail::offset_pointers(a, b, false);
  } else if constexpr (detail::pointer_like<B>) {
    if constexpr (detail::pointer_rules_hold<B, A>()) return detail::offset_pointers(b, a, false);
  } else if constexpr (detail::elementwise_rules_hold<detail::operand_rule::arithmetic, A, B>()) {
    return detail::elementwise<detail::op_add>(a, b);
  }
}

/// `a - b`: numbers elementwise, or a pointer (tile) minus integer offsets.
template <class A, class B>
  requires has_a_tile<A, B>
auto operator-(const A& a, const B& b) {
  if constexpr (detail::pointer_like<A>) {
    if constexpr (detail::pointer_rules_hold<A, B>()) return detail::offset_pointers(a, b, true);
  } else if constexpr (detail::pointer_like<B>) {
    static_assert(!detail::pointer_like<B>,
                  "pointer_offset_operands: only offsets are subtracted from pointers (ptr_tile - int); "
                  "int - ptr and pointer differences are not in the language");
  } else if constexpr (detail::elementwise_rules_hold<detail::operand_rule::arithmetic, A, B>()) {
    return detail::elementwise<detail::op_sub>(a, b);
  }
}

#define TILECC_BINARY_OPERATOR(OP, RULE, FN)                                      \
  template <class A, class B>                                                     \
    requires has_a_tile<A, B>                                                     \
  auto operator OP(const A& a, const B& b) {                                      \
    if constexpr (detail::elementwise_rules_hold<detail::operand_rule::RULE, A, B>()) \
      return detail::elementwise<detail::FN>(a, b);                               \
  }
TILECC_BINARY_OPERATOR(*, arithmetic, op_mul)
TILECC_BINARY_OPERATOR(/, arithmetic, op_div)
TILECC_BINARY_OPERATOR(%, integer, op_rem)
TILECC_BINARY_OPERATOR(<<, integer, op_shl)
TILECC_BINARY_OPERATOR(>>, integer, op_shr)
TILECC_BINARY_OPERATOR(&, bitwise, op_and)
TILECC_BINARY_OPERATOR(|, bitwise, op_or)
TILECC_BINARY_OPERATOR(^, bitwise, op_xor)
TILECC_BINARY_OPERATOR(==, comparable, op_eq)
TILECC_BINARY_OPERATOR(!=, comparable, op_ne)
TILECC_BINARY_OPERATOR(<, comparable, op_lt)
TILECC_BINARY_OPERATOR(<=, comparable, op_le)
TILECC_BINARY_OPERATOR(>, comparable, op_gt)
TILECC_BINARY_OPERATOR(>=, comparable, op_ge)
#undef TILECC_BINARY_OPERATOR

template <class X>
  requires tile_value<X>
auto operator-(const X& x) {
  static_assert(numeric_tile<X>, "numeric_tile: negation needs a tile of numbers (not bool, not pointers)");
  if constexpr (numeric_tile<X>) return detail::elementwise<detail::op_neg>(x);
}
template <class X>
  requires tile_value<X>
auto operator+(const X& x) {
  static_assert(numeric_tile<X>, "numeric_tile: unary + needs a tile of numbers (not bool, not pointers)");
  if constexpr (numeric_tile<X>) return x;
}
template <class X>
  requires tile_value<X>
auto operator~(const X& x) {
  static_assert(integer_or_bool_tile<X>, "integer_or_bool_tile: ~ needs a tile of integers or bool");
  if constexpr (integer_or_bool_tile<X>) return detail::elementwise<detail::op_bitnot>(x);
}
template <class X>
  requires tile_value<X>
auto operator!(const X& x) {
  static_assert(integer_or_bool_tile<X>, "integer_or_bool_tile: ! needs a tile of integers or bool");
  if constexpr (integer_or_bool_tile<X>) return detail::elementwise<detail::op_not>(x);
}

/// `acc OP= x` keeps acc's type and shape: `acc OP x` must give acc's type (x broadcasts to
/// acc; an int tile cannot take a float, nor a tile<int> an int64_t offset, which would widen
/// it: cast<int>(x), or declare acc as a tile<int64_t>).
template <class Result, class Target>
concept compound_assignment_keeps_type = std::is_same_v<Result, Target>;

// l OP r is checked first (its own rule is reported if it is misuse; its type is then void).
#define TILECC_COMPOUND_OPERATOR(OP)                                                                          \
  template <class T, int... D, class R>                                                                       \
  tile<T, D...>& operator OP##=(tile<T, D...>& l, const R& r) {                                               \
    using Result = decltype(std::as_const(l) OP r);                                                           \
    if constexpr (!std::is_void_v<Result>) {                                                                  \
      static_assert(compound_assignment_keeps_type<Result, tile<T, D...>>,                                    \
                    "compound_assignment_keeps_type: acc " #OP "= x must keep acc's type and shape; acc " #OP \
                    " x has another (an int tile cannot take a float; a tile<int> cannot take an int64_t "   \
                    "offset: cast<int>(x), or declare acc as a tile<int64_t>)");                              \
      if constexpr (compound_assignment_keeps_type<Result, tile<T, D...>>) l = l OP r;                        \
    }                                                                                                         \
    return l;                                                                                                 \
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

namespace detail {
// The rules of a tile type named by its element and extents (zeros, full, broadcast_to, ...).
template <class T, int... D>
constexpr bool tile_type_rules_hold() {
  if constexpr (!tile_element_type<T>) {
    static_assert(tile_element_type<T>,
                  "tile_element_type: a tile holds bool, int8_t, uint8_t, int32_t, uint32_t, int64_t, float, half, "
                  "bfloat16, or pointers to those (double is not an element type: use float)");
    return false;
  } else if constexpr (!tile_rank_is_1_to_3<D...>) {
    static_assert(tile_rank_is_1_to_3<D...>, "tile_rank_is_1_to_3: a tile has 1, 2 or 3 extents");
    return false;
  } else if constexpr (!tile_extents_are_powers_of_two<D...>) {
    static_assert(tile_extents_are_powers_of_two<D...>,
                  "tile_extents_are_powers_of_two: every tile extent is a power of two");
    return false;
  } else {
    return true;
  }
}
}  // namespace detail

/// 0, 1, ..., N-1.
template <int N>
auto arange() {
  if constexpr (detail::tile_type_rules_hold<int, N>()) {
    tile<int, N> t;
    for (int i = 0; i < N; ++i) t.data[i] = i;
    return t;
  }
}

template <class T, int... D>
auto zeros() {
  if constexpr (detail::tile_type_rules_hold<T, D...>()) return tile<T, D...>{};
}

template <class T, int... D, class V>
auto full(V v) {
  if constexpr (detail::tile_type_rules_hold<T, D...>()) {
    if constexpr (!element_type<T>) {
      static_assert(element_type<T>, "element_type: full<T, ...> makes tiles of numbers or bool (zeros<T*> for pointers)");
    } else if constexpr (!scalar_value<V>) {
      static_assert(scalar_value<V>, "scalar_value: full<T, ...>(v) takes a scalar v (use broadcast_to for tiles)");
    } else {
      tile<T, D...> t;
      const T c = convert<T>(v);
      for (auto& e : t.data) e = c;
      return t;
    }
  }
}

// ---- elementwise functions ---------------------------------------------------------------------

/// cast<U>(x): converts every element (float→int truncates and saturates, NaN → 0; narrowing
/// floats round to nearest even). Also works on scalars.
template <class U, class X>
  requires tile_value<X> || scalar_value<X>
auto cast(const X& x) {
  if constexpr (!element_type<U>) {
    static_assert(element_type<U>,
                  "element_type: cast<U> converts to an element type (bool, int8_t, uint8_t, int32_t, uint32_t, "
                  "int64_t, float, half, bfloat16)");
  } else if constexpr (!tile_value<X>) {
    return convert<U>(x);
  } else if constexpr (!element_type<detail::element_of<X>>) {
    static_assert(element_type<detail::element_of<X>>, "element_type: cast<U> converts tiles of numbers or bool, not pointers");
  } else {
    return detail::map<U>([](auto v) { return convert<U>(v); }, x);
  }
}

template <class M, class A, class B>
concept where_operands = has_a_tile<M, A, B> && mask_operand<M> &&
                         (tile_or_scalar<A> || pointer_element<A>) && (tile_or_scalar<B> || pointer_element<B>) &&
                         tile_element_types_match<A, B> && shapes_broadcast<M, A, B>;

/// Elementwise choice; scalars may stand in any position and broadcast. The values promote
/// like the operands of an operator (tile<int> with an int64_t gives tile<int64_t>).
template <class M, class A, class B>
  requires has_a_tile<M, A, B>
auto where(const M& mask, const A& a, const B& b) {
  if constexpr (!mask_operand<M>) {
    static_assert(mask_operand<M>, "mask_operand: where's first operand is a mask: bool or a tile of bool");
  } else if constexpr (!((tile_or_scalar<A> || pointer_element<A>) && (tile_or_scalar<B> || pointer_element<B>))) {
    static_assert(tile_or_scalar<A, B>, "tile_or_scalar: where chooses between tiles or scalars");
  } else if constexpr (!tile_element_types_match<A, B>) {
    static_assert(tile_element_types_match<A, B>,
                  "tile_element_types_match: where's values need the same element type (use cast<U>); only integer "
                  "tiles of different widths promote to the wider one");
  } else if constexpr (!shapes_broadcast<M, A, B>) {
    static_assert(shapes_broadcast<M, A, B>,
                  "shapes_broadcast: where's mask and values broadcast like NumPy: equal ranks, each extent equal or 1");
  } else {
    using C = detail::compute_t<A, B>;
    return detail::map<C>([](bool m, auto x, auto y) { return m ? convert<C>(x) : convert<C>(y); }, mask, a, b);
  }
}

/// Elementwise maximum, ignoring NaN (fmax).
template <class A, class B>
  requires has_a_tile<A, B>
auto maximum(const A& a, const B& b) {
  if constexpr (detail::elementwise_rules_hold<detail::operand_rule::arithmetic, A, B>())
    return detail::elementwise<detail::op_max>(a, b);
}
/// Elementwise minimum, ignoring NaN (fmin).
template <class A, class B>
  requires has_a_tile<A, B>
auto minimum(const A& a, const B& b) {
  if constexpr (detail::elementwise_rules_hold<detail::operand_rule::arithmetic, A, B>())
    return detail::elementwise<detail::op_min>(a, b);
}

/// a * b + c with one rounding (integers wrap).
template <class A, class B, class C>
  requires has_a_tile<A, B, C>
auto fma(const A& a, const B& b, const C& c) {
  if constexpr (detail::elementwise_rules_hold<detail::operand_rule::arithmetic, A, B, C>())
    return detail::elementwise<detail::op_fma>(a, b, c);
}

/// a to the power b, in float (half/bfloat16 round back); scalars in either position.
template <class A, class B>
  requires has_a_tile<A, B>
auto pow(const A& a, const B& b) {
  if constexpr (detail::elementwise_rules_hold<detail::operand_rule::floating, A, B>())
    return detail::elementwise<detail::op_pow>(a, b);
}

template <class X>
  requires tile_value<X>
auto abs(const X& x) {
  static_assert(numeric_tile<X>, "numeric_tile: abs needs a tile of numbers");
  if constexpr (numeric_tile<X>) {
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
}

// Floating-point math: computed in float (half/bfloat16 round back to their type).
#define TILECC_FLOAT_FUNCTION(NAME, EXPR)                                                             \
  template <class X>                                                                                  \
    requires tile_value<X>                                                                            \
  auto NAME(const X& x) {                                                                             \
    static_assert(floating_tile<X>,                                                                   \
                  "floating_tile: " #NAME " needs a floating tile (float, half, bfloat16): cast integer " \
                  "tiles first");                                                                     \
    if constexpr (floating_tile<X>) {                                                                 \
      using T = detail::element_of<X>;                                                                \
      return detail::map<T>([](T v) { const float f = detail::up(v); return convert<T>(EXPR); }, x);   \
    }                                                                                                 \
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
TILECC_FLOAT_FUNCTION(round, std::round(f))  // half away from zero
// The GPU's approximations (ex2.approx.ftz: within 2 ulp; results below FLT_MIN are 0): one
// instruction instead of exp2f's range handling. The host twin flushes the same results.
TILECC_FLOAT_FUNCTION(fast_exp, detail::flush_subnormal(std::exp(f)))
TILECC_FLOAT_FUNCTION(fast_exp2, detail::flush_subnormal(std::exp2(f)))
#undef TILECC_FLOAT_FUNCTION

}  // namespace tilecc
