// tilecc: user-chosen layouts in Hidet's task-mapping notation, and with_layout.
// Included by <tilecc/tile.hpp>.
//
// A task mapping assigns the tasks of a grid (the elements of a tile) to threads:
//   spatial<d0, d1, ...>  a d0 × d1 × ... grid of tasks on as many threads, one task each;
//                         thread w takes task (w / (d1·…), …, w % d_last), row-major.
//   repeat<d0, d1, ...>   the same grid of tasks, all on one thread.
//   compose<A, B, ...>    A's tasks are each B's whole grid (and so on), outermost first:
//                         task extents multiply per dimension, threads multiply.
// The host twin ignores layouts (with_layout returns its operand); the translator reads the
// mapping type from with_layout's template argument. These are plain class templates in
// namespace tilecc whose constexpr members give what the translator and tests need:
//   M::rank, M::task_extent(dim), M::num_threads, M::tasks_per_thread, M::valid.
#pragma once

#include "tilecc/core.hpp"

namespace tilecc {

namespace detail {
template <int... D>
constexpr bool all_positive() {
  return ((D > 0) && ...);
}
template <int... D>
constexpr int extent_at(int dim) {
  const int e[] = {D..., 0};
  return dim >= 0 && dim < static_cast<int>(sizeof...(D)) ? e[dim] : 0;
}
}  // namespace detail

/// A grid of tasks on as many threads, one task per thread.
template <int... D>
struct spatial {
  static constexpr int rank = static_cast<int>(sizeof...(D));
  static constexpr bool valid = rank > 0 && detail::all_positive<D...>();
  static constexpr int task_extent(int dim) { return detail::extent_at<D...>(dim); }
  static constexpr int num_threads = detail::product<D...>();
  static constexpr int tasks_per_thread = 1;
};

/// A grid of tasks, all on one thread.
template <int... D>
struct repeat {
  static constexpr int rank = static_cast<int>(sizeof...(D));
  static constexpr bool valid = rank > 0 && detail::all_positive<D...>();
  static constexpr int task_extent(int dim) { return detail::extent_at<D...>(dim); }
  static constexpr int num_threads = 1;
  static constexpr int tasks_per_thread = detail::product<D...>();
};

namespace detail {
template <class M>
struct is_task_mapping_impl : std::false_type {};
template <int... D>
struct is_task_mapping_impl<spatial<D...>> : std::true_type {};
template <int... D>
struct is_task_mapping_impl<repeat<D...>> : std::true_type {};

// The members of a part of a compose, or zeros for a part that is no mapping (compose<int> is
// then not `valid`, and reporting that must not fail on int::rank first).
template <class M, bool = is_task_mapping_impl<M>::value>
struct part {
  static constexpr int rank = 0, num_threads = 0, tasks_per_thread = 0;
  static constexpr bool valid = false;
  static constexpr int task_extent(int) { return 0; }
};
template <class M>
struct part<M, true> : M {};

template <class M0 = void, class... M>
constexpr int first_rank() {
  if constexpr (std::is_void_v<M0>)
    return 0;
  else
    return part<M0>::rank;
}
}  // namespace detail

/// Nested mappings, outermost first: task extents multiply per dimension, threads multiply.
template <class... M>
struct compose {
  static constexpr int rank = detail::first_rank<M...>();  // every part's rank when `valid`
  static constexpr bool valid = sizeof...(M) > 0 && ((detail::part<M>::valid && detail::part<M>::rank == rank) && ...);
  static constexpr int task_extent(int dim) { return (detail::part<M>::task_extent(dim) * ... * 1); }
  static constexpr int num_threads = (detail::part<M>::num_threads * ... * 1);
  static constexpr int tasks_per_thread = (detail::part<M>::tasks_per_thread * ... * 1);
};

namespace detail {
template <class... M>
struct is_task_mapping_impl<compose<M...>> : std::true_type {};
}  // namespace detail

/// A well-formed task mapping: spatial<...>, repeat<...> or compose<...> of those, every
/// extent positive, and the parts of a compose of one rank.
template <class M>
concept task_mapping = detail::is_task_mapping_impl<M>::value && M::valid;

namespace detail {
template <class M, class X>
constexpr bool layout_fits() {
  constexpr shape_t s = shape_of<X>;
  if (M::rank != s.rank) return false;
  for (int d = 0; d < s.rank; ++d)
    if (M::task_extent(d) != s.ext[d]) return false;
  return true;
}
}  // namespace detail

/// The mapping has the tile's rank and its task extents are the tile's extents.
template <class M, class X>
concept layout_matches_shape = task_mapping<M> && tile_value<X> && detail::layout_fits<M, X>();

/// Asks the translator to hold this value in layout M; returns x (the host twin ignores M).
/// The thread count (num_warps × 32) is checked by the translator, which knows num_warps.
template <class M, class X>
  requires tile_value<X>
auto with_layout(const X& x) {
  if constexpr (!task_mapping<M>) {
    static_assert(task_mapping<M>,
                  "task_mapping: with_layout<M> takes a task mapping: spatial<d...>, repeat<d...> or compose<A, B, "
                  "...> of those, every extent positive, the parts of a compose of one rank");
  } else if constexpr (!layout_matches_shape<M, X>) {
    static_assert(layout_matches_shape<M, X>,
                  "layout_matches_shape: with_layout<M>(t): M's rank must be t's, and M's task extents (their "
                  "product per dimension, for compose) must be t's extents");
  } else {
    return x;
  }
}

}  // namespace tilecc
