// tilecc: reductions (sum, max, min, argmax, argmin, reduce with a combine function) and
// inclusive scans (cumsum, cumprod, scan with a combine function). Included by <tilecc/tile.hpp>.
//
// The host twin combines left to right, one element after another; the translator may
// reassociate (the combine function must be associative), so floating results may differ in
// the last bits.
#pragma once

#include "tilecc/shape.hpp"

namespace tilecc {

namespace detail {

// The accumulation type of sum, cumsum and cumprod: half/bfloat16 → float, 8-bit integers and
// bool → int, everything else itself.
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

// Inclusive scan along Axis into a tile of Out of x's shape: out[0] = x[0],
// out[k] = step(out[k-1], x[k]), every element converted to Out first.
template <int Axis, class Out, class X, class Step>
auto scan_axis(const X& x, Step step) {
  constexpr shape_t S = shape_of<X>;
  int outer = 1, inner = 1;
  for (int k = 0; k < Axis; ++k) outer *= S.ext[k];
  for (int k = Axis + 1; k < S.rank; ++k) inner *= S.ext[k];
  constexpr int n = S.ext[Axis];
  auto r = tile_for<Out, S>::make();
  for (int o = 0; o < outer; ++o)
    for (int i = 0; i < inner; ++i) {
      const int base = o * n * inner + i;
      Out acc = convert<Out>(x.data[base]);
      r.data[base] = acc;
      for (int k = 1; k < n; ++k) {
        acc = step(acc, convert<Out>(x.data[base + k * inner]));
        r.data[base + k * inner] = acc;
      }
    }
  return r;
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

/// Scans take the same axes as reductions: 0 ≤ Axis < rank, or none (-1) for rank-1 tiles.
template <int Axis, class X>
concept valid_scan_axis = valid_reduction_axis<Axis, X>;

namespace detail {

enum class reduction_kind { sum, extreme, scan_sum, combine, scan_combine };

// The axis rule, then the element rule of each kind of reduction or scan.
template <reduction_kind K, int Axis, class X>
constexpr bool reduction_rules_hold() {
  constexpr bool scan = K == reduction_kind::scan_sum || K == reduction_kind::scan_combine;
  if constexpr (!scan && !valid_reduction_axis<Axis, X>) {
    static_assert(valid_reduction_axis<Axis, X>,
                  "valid_reduction_axis: reductions take an axis 0 <= Axis < rank (sum<1>(t)); only rank-1 tiles "
                  "may leave it out");
    return false;
  } else if constexpr (scan && !valid_scan_axis<Axis, X>) {
    static_assert(valid_scan_axis<Axis, X>,
                  "valid_scan_axis: scans take an axis 0 <= Axis < rank (cumsum<1>(t)); only rank-1 tiles may leave "
                  "it out");
    return false;
  } else if constexpr ((K == reduction_kind::sum || K == reduction_kind::scan_sum) && !summable_tile<X>) {
    static_assert(summable_tile<X>, "summable_tile: sum, cumsum and cumprod take tiles of numbers or bool");
    return false;
  } else if constexpr (K == reduction_kind::extreme && !numeric_tile<X>) {
    static_assert(numeric_tile<X>, "numeric_tile: max, min, argmax and argmin take tiles of numbers");
    return false;
  } else {
    return true;
  }
}

}  // namespace detail

/// Sum along Axis; half/bfloat16 accumulate in float, 8-bit integers and bool in int.
template <int Axis = -1, class X>
  requires tile_value<X>
auto sum(const X& x) {
  if constexpr (detail::reduction_rules_hold<detail::reduction_kind::sum, Axis, X>()) {
    using T = detail::element_of<X>;
    using A = detail::sum_t<T>;
    // From the first element, as the GPU adds: a sum of -0.0s is -0.0 (starting from +0.0
    // would make it +0.0, which no IEEE sum of them gives).
    return detail::reduce_axis<(Axis < 0 ? 0 : Axis), A>(x, [](const T* p, int n, int s) {
      A acc = convert<A>(p[0]);
      for (int k = 1; k < n; ++k) acc = detail::op_add{}(acc, convert<A>(p[k * s]));
      return acc;
    });
  }
}

/// Maximum along Axis, ignoring NaN (as fmax).
template <int Axis = -1, class X>
  requires tile_value<X>
auto max(const X& x) {
  if constexpr (detail::reduction_rules_hold<detail::reduction_kind::extreme, Axis, X>()) {
    using T = detail::element_of<X>;
    return detail::reduce_axis<(Axis < 0 ? 0 : Axis), T>(x, [](const T* p, int n, int s) {
      T acc = p[0];
      for (int k = 1; k < n; ++k) acc = detail::op_max{}(acc, p[k * s]);
      return acc;
    });
  }
}

/// Minimum along Axis, ignoring NaN (as fmin).
template <int Axis = -1, class X>
  requires tile_value<X>
auto min(const X& x) {
  if constexpr (detail::reduction_rules_hold<detail::reduction_kind::extreme, Axis, X>()) {
    using T = detail::element_of<X>;
    return detail::reduce_axis<(Axis < 0 ? 0 : Axis), T>(x, [](const T* p, int n, int s) {
      T acc = p[0];
      for (int k = 1; k < n; ++k) acc = detail::op_min{}(acc, p[k * s]);
      return acc;
    });
  }
}

/// Index (int) of the first maximum along Axis.
template <int Axis = -1, class X>
  requires tile_value<X>
auto argmax(const X& x) {
  if constexpr (detail::reduction_rules_hold<detail::reduction_kind::extreme, Axis, X>()) {
    using T = detail::element_of<X>;
    return detail::reduce_axis<(Axis < 0 ? 0 : Axis), int>(
        x, [](const T* p, int n, int s) { return detail::arg_extreme<true>(p, n, s); });
  }
}

/// Index (int) of the first minimum along Axis.
template <int Axis = -1, class X>
  requires tile_value<X>
auto argmin(const X& x) {
  if constexpr (detail::reduction_rules_hold<detail::reduction_kind::extreme, Axis, X>()) {
    using T = detail::element_of<X>;
    return detail::reduce_axis<(Axis < 0 ? 0 : Axis), int>(
        x, [](const T* p, int n, int s) { return detail::arg_extreme<false>(p, n, s); });
  }
}

// ---- scans ---------------------------------------------------------------------------------------

/// Inclusive prefix sums along Axis, same shape; half/bfloat16 accumulate and return float,
/// 8-bit integers and bool int (as sum). Integers wrap.
template <int Axis = -1, class X>
  requires tile_value<X>
auto cumsum(const X& x) {
  if constexpr (detail::reduction_rules_hold<detail::reduction_kind::scan_sum, Axis, X>()) {
    using A = detail::sum_t<detail::element_of<X>>;
    return detail::scan_axis<(Axis < 0 ? 0 : Axis), A>(x, detail::op_add{});
  }
}

/// Inclusive prefix products along Axis, same shape; accumulation types as cumsum.
template <int Axis = -1, class X>
  requires tile_value<X>
auto cumprod(const X& x) {
  if constexpr (detail::reduction_rules_hold<detail::reduction_kind::scan_sum, Axis, X>()) {
    using A = detail::sum_t<detail::element_of<X>>;
    return detail::scan_axis<(Axis < 0 ? 0 : Axis), A>(x, detail::op_mul{});
  }
}

// ---- combine functions ---------------------------------------------------------------------------

/// A combine function for scan and reduce over elements of type T: a lambda without captures
/// (any empty function object) or a function, called as f(a, b) with two T and returning T.
/// (A function template is passed by name and instantiated for T: scan<0>(t, my_max).)
template <class F, class T>
concept combine_function =
    element_type<T> &&
    ((std::is_pointer_v<F> && std::is_function_v<std::remove_pointer_t<F>>) ||
     (std::is_class_v<F> && std::is_empty_v<F>)) &&
    requires(F& f, T a) { f(a, a); } && std::is_same_v<std::invoke_result_t<F&, T, T>, T>;

namespace detail {
template <class F, class T>
constexpr bool combine_rules_hold() {
  if constexpr (!element_type<T>) {
    static_assert(element_type<T>, "combine_function: scan and reduce combine tiles of numbers or bool, not pointers");
    return false;
  } else if constexpr (!((std::is_pointer_v<F> && std::is_function_v<std::remove_pointer_t<F>>) ||
                         (std::is_class_v<F> && std::is_empty_v<F>))) {
    static_assert(combine_function<F, T>,
                  "combine_function: the combine function is a lambda without captures or a function (its name), "
                  "nothing that carries state");
    return false;
  } else if constexpr (!combine_function<F, T>) {
    static_assert(combine_function<F, T>,
                  "combine_function: the combine function is called as f(a, b) with two values of the tile's "
                  "element type and returns that type (write the return type: [](int8_t a, int8_t b) -> int8_t)");
    return false;
  } else {
    return true;
  }
}
}  // namespace detail

/// Inclusive scan along Axis with an associative combine function f: out[0] = x[0],
/// out[k] = f(out[k-1], x[k]). Same shape and element type as x.
template <int Axis = -1, class X, class F>
  requires tile_value<X>
auto scan(const X& x, F f) {
  if constexpr (!detail::reduction_rules_hold<detail::reduction_kind::scan_combine, Axis, X>()) {
  } else if constexpr (detail::combine_rules_hold<F, detail::element_of<X>>()) {
    using T = detail::element_of<X>;
    return detail::scan_axis<(Axis < 0 ? 0 : Axis), T>(x, [&f](T a, T b) -> T { return f(a, b); });
  }
}

/// scan with a function template named without its arguments (scan<0>(t, my_max)): the
/// function is instantiated for the element type. (A plain function name also lands here.)
template <int Axis = -1, class T, int... D>
auto scan(const tile<T, D...>& x, std::type_identity_t<T> (*f)(std::type_identity_t<T>, std::type_identity_t<T>)) {
  using F = T (*)(T, T);
  return scan<Axis, tile<T, D...>, F>(x, f);
}

/// Reduction along Axis with an associative combine function f (left to right on the host):
/// removes Axis; a rank-1 tile gives a scalar. The result has the element type.
template <int Axis = -1, class X, class F>
  requires tile_value<X>
auto reduce(const X& x, F f) {
  if constexpr (!detail::reduction_rules_hold<detail::reduction_kind::combine, Axis, X>()) {
  } else if constexpr (detail::combine_rules_hold<F, detail::element_of<X>>()) {
    using T = detail::element_of<X>;
    return detail::reduce_axis<(Axis < 0 ? 0 : Axis), T>(x, [&f](const T* p, int n, int s) -> T {
      T acc = p[0];
      for (int k = 1; k < n; ++k) acc = f(acc, p[k * s]);
      return acc;
    });
  }
}

/// reduce with a function template named without its arguments (see scan).
template <int Axis = -1, class T, int... D>
auto reduce(const tile<T, D...>& x, std::type_identity_t<T> (*f)(std::type_identity_t<T>, std::type_identity_t<T>)) {
  using F = T (*)(T, T);
  return reduce<Axis, tile<T, D...>, F>(x, f);
}

}  // namespace tilecc
