// tilecc: dot — matrix products of rank-2 tiles. Included by <tilecc/tile.hpp>.
#pragma once

#include "tilecc/elementwise.hpp"

namespace tilecc {

enum class precision { ieee, tf32 };

/// dot's element types: half, bfloat16, float, int8_t.
template <class T>
concept dot_element = std::is_same_v<T, half> || std::is_same_v<T, bfloat16> || std::is_same_v<T, float> ||
                      std::is_same_v<T, std::int8_t>;

namespace detail {
template <class T>
using dot_acc_t = std::conditional_t<std::is_same_v<T, std::int8_t>, std::int32_t, float>;
}

template <class A, class B>
concept dot_ranks_are_2 = tile_value<A> && tile_value<B> && detail::shape_of<A>.rank == 2 && detail::shape_of<B>.rank == 2;

template <class A, class B>
concept dot_inner_extents_match = detail::shape_of<A>.ext[1] == detail::shape_of<B>.ext[0];

template <class A, class B>
concept dot_extents_at_least_16 =
    detail::shape_of<A>.ext[0] >= 16 && detail::shape_of<A>.ext[1] >= 16 && detail::shape_of<B>.ext[1] >= 16;

/// a [M, K] and b [K, N] of one element type (half, bfloat16, float or int8_t), M, N, K ≥ 16.
template <class A, class B>
concept dot_operands = dot_ranks_are_2<A, B> && std::is_same_v<detail::element_of<A>, detail::element_of<B>> &&
                       dot_element<detail::element_of<A>> && dot_inner_extents_match<A, B> &&
                       dot_extents_at_least_16<A, B>;

/// tf32 is a precision for float inputs only.
template <precision P, class A>
concept dot_precision_fits = P == precision::ieee || std::is_same_v<detail::element_of<A>, float>;

/// The accumulator of dot(a, b, acc): [M, N] of float (int for int8_t inputs).
template <class C, class A, class B>
concept dot_accumulator =
    std::is_same_v<C, tile<detail::dot_acc_t<detail::element_of<A>>, detail::shape_of<A>.ext[0], detail::shape_of<B>.ext[1]>>;

namespace detail {
// C is void for dot(a, b).
template <precision P, class A, class B, class C>
constexpr bool dot_rules_hold() {
  if constexpr (!dot_ranks_are_2<A, B>) {
    static_assert(dot_ranks_are_2<A, B>, "dot_ranks_are_2: dot multiplies rank-2 tiles a [M, K] and b [K, N]");
    return false;
  } else if constexpr (!(dot_element<element_of<A>> && dot_element<element_of<B>>)) {
    static_assert(dot_element<element_of<A>> && dot_element<element_of<B>>,
                  "dot_element: dot takes tiles of half, bfloat16, float or int8_t");
    return false;
  } else if constexpr (!std::is_same_v<element_of<A>, element_of<B>>) {
    // (dot's element types contain no two integers of different widths, so this is exactly
    // the elementwise rule: equal types.)
    static_assert(tile_element_types_match<A, B>,
                  "tile_element_types_match: dot's operands have one element type (use cast<U>)");
    return false;
  } else if constexpr (!dot_inner_extents_match<A, B>) {
    static_assert(dot_inner_extents_match<A, B>, "dot_inner_extents_match: dot(a [M, K], b [K, N]): a's columns are b's rows");
    return false;
  } else if constexpr (!dot_extents_at_least_16<A, B>) {
    static_assert(dot_extents_at_least_16<A, B>, "dot_extents_at_least_16: dot needs M, N, K >= 16 (tensor-core tiles)");
    return false;
  } else if constexpr (!dot_precision_fits<P, A>) {
    static_assert(dot_precision_fits<P, A>, "dot_precision_fits: precision::tf32 applies to float inputs only");
    return false;
  } else if constexpr (!std::is_void_v<C> && !dot_accumulator<C, A, B>) {
    static_assert(dot_accumulator<C, A, B>,
                  "dot_accumulator: dot(a, b, acc): acc is the result's tile: [M, N] of float (int for int8_t inputs)");
    return false;
  } else {
    return true;
  }
}
}  // namespace detail

/// acc + a·b. half/bfloat16 accumulate in float, int8_t in int; float is IEEE fp32 unless
/// dot<precision::tf32> rounds the inputs to TF32 as the tensor cores do.
template <precision P = precision::ieee, class A, class B, class C>
  requires tile_value<A> && tile_value<B>
auto dot(const A& a, const B& b, const C& acc) {
  if constexpr (detail::dot_rules_hold<P, A, B, C>()) {
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
}

template <precision P = precision::ieee, class A, class B>
  requires tile_value<A> && tile_value<B>
auto dot(const A& a, const B& b) {
  if constexpr (detail::dot_rules_hold<P, A, B, void>()) {
    using C = tile<detail::dot_acc_t<detail::element_of<A>>, detail::shape_of<A>.ext[0], detail::shape_of<B>.ext[1]>;
    return dot<P>(a, b, C{});
  }
}

}  // namespace tilecc
