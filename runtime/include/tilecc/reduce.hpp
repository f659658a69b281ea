// tilecc: reductions (sum, max, min, argmax, argmin). Included by <tilecc/tile.hpp>.
#pragma once

#include "tilecc/shape.hpp"

namespace tilecc {

namespace detail {

// The accumulation type of sum: half/bfloat16 → float, 8-bit integers and bool → int,
// everything else itself.
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

namespace detail {

enum class reduction_kind { sum, extreme };

// The axis rule, then the element rule of each kind of reduction.
template <reduction_kind K, int Axis, class X>
constexpr bool reduction_rules_hold() {
  if constexpr (!valid_reduction_axis<Axis, X>) {
    static_assert(valid_reduction_axis<Axis, X>,
                  "valid_reduction_axis: reductions take an axis 0 <= Axis < rank (sum<1>(t)); only rank-1 tiles "
                  "may leave it out");
    return false;
  } else if constexpr (K == reduction_kind::sum && !summable_tile<X>) {
    static_assert(summable_tile<X>, "summable_tile: sum takes tiles of numbers or bool");
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
    return detail::reduce_axis<(Axis < 0 ? 0 : Axis), A>(x, [](const T* p, int n, int s) {
      A acc = convert<A>(0);
      for (int k = 0; k < n; ++k) acc = detail::op_add{}(acc, convert<A>(p[k * s]));
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

}  // namespace tilecc
