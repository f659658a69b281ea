// tilecc: programs — program_id, num_programs, cdiv, scalar min/max, and the host twin's
// launcher. Included by <tilecc/tile.hpp>.
#pragma once

#include "tilecc/core.hpp"

namespace tilecc {

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
inline int program_id(int axis, detail::source_location loc = detail::source_location::current()) {
  const auto& p = host::detail::current_program;
  if (!p.active) detail::fail(loc, "program_id called outside a kernel launch");
  if (axis < 0 || axis > 2) detail::fail(loc, "program_id axis must be 0, 1 or 2, got %d", axis);
  return p.id[axis];
}

/// The grid's extent along axis 0, 1 or 2.
inline int num_programs(int axis, detail::source_location loc = detail::source_location::current()) {
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

/// Scalar max/min (floating values ignore NaN as fmax/fmin). Constrained rather than checked:
/// they must not capture calls meant for std::max/std::min or the tile reductions.
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
    tilecc::detail::fail(tilecc::detail::source_location::current(), "launch: negative grid {%d, %d, %d}", g.x, g.y,
                         g.z);
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
