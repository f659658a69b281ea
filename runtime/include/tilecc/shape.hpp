// tilecc: shape operations — expand_dims, col, row, broadcast_to, reshape, trans.
// Included by <tilecc/tile.hpp>.
#pragma once

#include "tilecc/elementwise.hpp"

namespace tilecc {

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

// Shape of x seen at rank R: lower ranks align to the right (NumPy), scalars are all ones.
template <class X, int R>
constexpr shape_t padded_shape() {
  constexpr shape_t s = shape_of<X>;
  shape_t r;
  r.rank = R;
  for (int i = 0; i < s.rank && i < R; ++i) r.ext[R - s.rank + i] = s.ext[i];
  return r;
}

}  // namespace detail

/// expand_dims<Axis>: Axis is 0..rank and the result has at most 3 axes.
template <int Axis, class X>
concept valid_expand_axis = tile_value<X> && Axis >= 0 && Axis <= detail::shape_of<X>.rank && detail::shape_of<X>.rank < 3;

/// Insert an axis of extent 1 at position Axis.
template <int Axis, class X>
  requires tile_value<X>
auto expand_dims(const X& x) {
  static_assert(valid_expand_axis<Axis, X>,
                "valid_expand_axis: expand_dims<Axis> inserts an axis at 0..rank of a tile of rank 1 or 2");
  if constexpr (valid_expand_axis<Axis, X>) {
    auto r = detail::tile_for<detail::element_of<X>, detail::insert_axis<detail::shape_of<X>, Axis>()>::make();
    for (int i = 0; i < X::size; ++i) r.data[i] = x.data[i];
    return r;
  }
}

template <class X>
concept rank_1_tile = tile_value<X> && detail::shape_of<X>.rank == 1;

/// [N] → [N, 1]
template <class X>
  requires tile_value<X>
auto col(const X& x) {
  static_assert(rank_1_tile<X>, "rank_1_tile: col turns a rank-1 tile [N] into [N, 1]");
  if constexpr (rank_1_tile<X>) return expand_dims<1>(x);
}
/// [N] → [1, N]
template <class X>
  requires tile_value<X>
auto row(const X& x) {
  static_assert(rank_1_tile<X>, "rank_1_tile: row turns a rank-1 tile [N] into [1, N]");
  if constexpr (rank_1_tile<X>) return expand_dims<0>(x);
}

/// broadcast_to<D...>(x): x is a tile of rank ≤ the target's (aligned right, as NumPy) or a scalar.
template <class X, int... D>
concept broadcastable_to =
    (tile_value<X> || scalar_value<X>) && detail::shape_of<X>.rank <= static_cast<int>(sizeof...(D)) &&
    detail::broadcasts_to(detail::padded_shape<X, static_cast<int>(sizeof...(D))>(), detail::make_shape<D...>());

/// Broadcast x (a tile of equal or lower rank, or a scalar) to shape D...
template <int... D, class X>
auto broadcast_to(const X& x) {
  if constexpr (!detail::tile_type_rules_hold<detail::element_of<X>, D...>()) {
  } else if constexpr (!broadcastable_to<X, D...>) {
    static_assert(broadcastable_to<X, D...>,
                  "broadcastable_to: broadcast_to<D...> takes a scalar or a tile of rank at most the target's whose "
                  "extents (aligned right) equal the target's or are 1");
  } else {
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
}

template <class X, int... D>
concept same_element_count = tile_value<X> && detail::shape_of<X>.size() == detail::product<D...>();

/// Same elements, new shape (row-major order kept).
template <int... D, class X>
  requires tile_value<X>
auto reshape(const X& x) {
  if constexpr (!detail::tile_type_rules_hold<detail::element_of<X>, D...>()) {
  } else if constexpr (!same_element_count<X, D...>) {
    static_assert(same_element_count<X, D...>, "same_element_count: reshape keeps the number of elements");
  } else {
    tile<detail::element_of<X>, D...> r;
    for (int i = 0; i < X::size; ++i) r.data[i] = x.data[i];
    return r;
  }
}

template <class X>
concept rank_2_tile = tile_value<X> && detail::shape_of<X>.rank == 2;

/// Transpose of a rank-2 tile.
template <class X>
  requires tile_value<X>
auto trans(const X& x) {
  static_assert(rank_2_tile<X>, "rank_2_tile: trans transposes a rank-2 tile");
  if constexpr (rank_2_tile<X>) {
    constexpr int M = detail::shape_of<X>.ext[0], N = detail::shape_of<X>.ext[1];
    tile<detail::element_of<X>, N, M> r;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) r.data[j * M + i] = x.data[i * N + j];
    return r;
  }
}

}  // namespace tilecc
