// tilecc: memory — load, store, atomic_add, block pointers, barrier, and the hints
// multiple_of / max_contiguous (promises the host twin checks). Included by <tilecc/tile.hpp>.
#pragma once

#include "tilecc/elementwise.hpp"

namespace tilecc {

/// Masks and values broadcast to the pointers' shape, never the other way.
template <class M, class P>
concept broadcasts_to_pointer_shape =
    (!tile_value<M>) || detail::broadcasts_to(detail::shape_of<M>, detail::shape_of<P>);

/// A value tile stored through pointers has the pointee's element type (use cast<U>); a scalar
/// converts. Through a single pointer only a scalar is stored.
template <class V, class P>
concept value_matches_pointee =
    scalar_value<V> ||
    (tile_value<V> && tile_value<P> && std::is_same_v<detail::element_of<V>, detail::pointee_t<detail::element_of<P>>>);

/// store and atomic_add write through pointers to non-const elements.
template <class P>
concept writable_pointer = !std::is_const_v<std::remove_pointer_t<detail::element_of<P>>>;

/// atomic_add exists for int32_t, uint32_t, int64_t, float, half and bfloat16.
template <class T>
concept atomic_add_element = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16> ||
                             std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
                             std::is_same_v<T, std::int64_t>;

namespace detail {

// The rules of a memory access through the tile of pointers P: P, then the value (if any),
// then the mask (if any). V or M is void when the access has none.
enum class access { load, store, atomic_add };

/// The sum an atomic_add stores. On the GPU a float atomic add (atom.add.f32) flushes subnormal
/// inputs and its result to zero of the same sign (PTX ISA); the twin does the same, so that it
/// stays the reference. Other element types add as `+` does.
template <class T>
T atomic_sum(T a, T b) {
  if constexpr (std::is_same_v<T, float>) {
    return flush_subnormal(flush_subnormal(a) + flush_subnormal(b));
  } else {
    return op_add{}(a, b);
  }
}

template <access A, class P, class V, class M>
constexpr bool access_rules_hold() {
  if constexpr (!pointer_tile<P>) {
    static_assert(pointer_tile<P>,
                  "pointer_tile: load/store/atomic_add take a tile of pointers to element types (ptr + arange<N>()), "
                  "or a single pointer");
    return false;
  } else if constexpr (A != access::load && !writable_pointer<P>) {
    static_assert(writable_pointer<P>, "writable_pointer: store and atomic_add write through pointers to non-const elements");
    return false;
  } else if constexpr (A == access::atomic_add && !atomic_add_element<pointee_t<element_of<P>>>) {
    static_assert(atomic_add_element<pointee_t<element_of<P>>>,
                  "atomic_add_element: atomic_add exists for int32_t, uint32_t, int64_t, float, half and bfloat16");
    return false;
  } else if constexpr (!std::is_void_v<V> && !value_matches_pointee<V, P>) {
    static_assert(value_matches_pointee<V, P>,
                  "value_matches_pointee: a value tile must have the pointee's element type (use cast<U>); a scalar "
                  "converts");
    return false;
  } else if constexpr (!std::is_void_v<V> && !broadcasts_to_pointer_shape<V, P>) {
    static_assert(broadcasts_to_pointer_shape<V, P>,
                  "broadcasts_to_pointer_shape: values broadcast to the pointers' shape (never the other way)");
    return false;
  } else if constexpr (!std::is_void_v<M> && !mask_operand<M>) {
    static_assert(mask_operand<M>, "mask_operand: a mask is bool or a tile of bool (a comparison, e.g. offs < n)");
    return false;
  } else if constexpr (!std::is_void_v<M> && !broadcasts_to_pointer_shape<M, P>) {
    static_assert(broadcasts_to_pointer_shape<M, P>,
                  "broadcasts_to_pointer_shape: the mask broadcasts to the pointers' shape (never the other way)");
    return false;
  } else {
    return true;
  }
}

// The rules of a scalar access through T* (T may be const).
template <access A, class T, class V>
constexpr bool scalar_access_rules_hold() {
  if constexpr (!pointer_element<T*>) {
    static_assert(pointer_element<T*>,
                  "pointer_element: pointers in kernels point to element types (bool, int8_t, uint8_t, int32_t, "
                  "uint32_t, int64_t, float, half, bfloat16; not double)");
    return false;
  } else if constexpr (A != access::load && std::is_const_v<T>) {
    static_assert(writable_pointer<T*>, "writable_pointer: store and atomic_add write through pointers to non-const elements");
    return false;
  } else if constexpr (A == access::atomic_add && !atomic_add_element<std::remove_cv_t<T>>) {
    static_assert(atomic_add_element<std::remove_cv_t<T>>,
                  "atomic_add_element: atomic_add exists for int32_t, uint32_t, int64_t, float, half and bfloat16");
    return false;
  } else if constexpr (!std::is_void_v<V> && !scalar_value<V>) {
    static_assert(value_matches_pointee<V, T*>,
                  "value_matches_pointee: through a single pointer, a single value is stored (for a tile, offset "
                  "the pointer: p + arange<N>())");
    return false;
  } else {
    return true;
  }
}

}  // namespace detail

template <class P>
  requires tile_value<P>
auto load(const P& ptrs) {
  if constexpr (detail::access_rules_hold<detail::access::load, P, void, void>()) {
    using T = detail::pointee_t<detail::element_of<P>>;
    return detail::map<T>([](auto p) { return static_cast<T>(*p); }, ptrs);
  }
}

/// Lanes whose mask is false are not accessed and give `other` (default 0).
template <class P, class M, class O = int>
  requires tile_value<P>
auto load(const P& ptrs, const M& mask, const O& other = 0) {
  if constexpr (detail::access_rules_hold<detail::access::load, P, O, M>()) {
    using T = detail::pointee_t<detail::element_of<P>>;
    return detail::map<T>([](auto p, bool m, auto o) { return m ? static_cast<T>(*p) : convert<T>(o); }, ptrs, mask,
                          other);
  }
}

template <class T>
auto load(T* p) {
  if constexpr (detail::scalar_access_rules_hold<detail::access::load, T, void>()) return static_cast<std::remove_cv_t<T>>(*p);
}

template <class T, class O = int>
auto load(T* p, bool mask, O other = 0) {
  if constexpr (detail::scalar_access_rules_hold<detail::access::load, T, O>())
    return mask ? static_cast<std::remove_cv_t<T>>(*p) : convert<std::remove_cv_t<T>>(other);
}

template <class P, class V>
  requires tile_value<P>
void store(const P& ptrs, const V& values) {
  if constexpr (detail::access_rules_hold<detail::access::store, P, V, void>()) {
    using T = detail::pointee_t<detail::element_of<P>>;
    constexpr detail::shape_t S = detail::shape_of<P>;
    for (int i = 0; i < S.size(); ++i) *ptrs.data[i] = convert<T>(detail::pick<S>(values, i));
  }
}

/// Lanes whose mask is false are not written.
template <class P, class V, class M>
  requires tile_value<P>
void store(const P& ptrs, const V& values, const M& mask) {
  if constexpr (detail::access_rules_hold<detail::access::store, P, V, M>()) {
    using T = detail::pointee_t<detail::element_of<P>>;
    constexpr detail::shape_t S = detail::shape_of<P>;
    for (int i = 0; i < S.size(); ++i)
      if (detail::pick<S>(mask, i)) *ptrs.data[i] = convert<T>(detail::pick<S>(values, i));
  }
}

template <class T, class V>
void store(T* p, V v) {
  if constexpr (detail::scalar_access_rules_hold<detail::access::store, T, V>()) *p = convert<T>(v);
}

template <class T, class V>
void store(T* p, V v, bool mask) {
  if constexpr (detail::scalar_access_rules_hold<detail::access::store, T, V>())
    if (mask) *p = convert<T>(v);
}

/// Atomically adds values at ptrs (masked lanes untouched) and returns the old values
/// (0 in masked-off lanes). float: subnormal operands and sums are flushed to zero, as on the GPU.
template <class P, class V, class M = bool>
  requires tile_value<P>
auto atomic_add(const P& ptrs, const V& values, const M& mask = true) {
  if constexpr (detail::access_rules_hold<detail::access::atomic_add, P, V, M>()) {
    using T = detail::pointee_t<detail::element_of<P>>;
    constexpr detail::shape_t S = detail::shape_of<P>;
    auto old = detail::tile_for<T, S>::make();
    for (int i = 0; i < S.size(); ++i) {
      if (!detail::pick<S>(mask, i)) continue;
      T* p = ptrs.data[i];
      old.data[i] = *p;
      *p = detail::atomic_sum(*p, convert<T>(detail::pick<S>(values, i)));
    }
    return old;
  }
}

template <class T, class V>
auto atomic_add(T* p, V v) {
  if constexpr (detail::scalar_access_rules_hold<detail::access::atomic_add, T, V>()) {
    const T old = *p;
    *p = detail::atomic_sum(*p, convert<T>(v));
    return old;
  }
}

/// Orders this program's global stores before its later loads (Triton's debug_barrier).
/// The host twin runs a program's statements in order, so this is a no-op there.
inline void barrier() {}

// ---- block pointers ------------------------------------------------------------------------

/// A braced list of R 64-bit integers: {size0, size1}.
template <int R>
struct index_list {
  std::int64_t v[R > 0 ? R : 1];
};

/// Structured access to a B0 x B1 (x B2) window of a strided array of `shape` elements,
/// starting at `offsets`. Loads pad elements outside [0, shape) with zero; stores skip them.
template <class T, int... B>
struct block_ptr {
  static_assert(element_type<std::remove_cv_t<T>>,
                "pointer_element: block pointers point to element types (bool, int8_t, uint8_t, int32_t, uint32_t, "
                "int64_t, float, half, bfloat16)");
  static_assert(tile_rank_is_1_to_3<B...>, "tile_rank_is_1_to_3: a block has 1, 2 or 3 extents");
  static_assert(tile_extents_are_powers_of_two<B...>, "tile_extents_are_powers_of_two: every block extent is a power of two");
  static constexpr int rank = static_cast<int>(sizeof...(B));
  T* base;
  std::int64_t shape[rank > 0 ? rank : 1];
  std::int64_t strides[rank > 0 ? rank : 1];
  std::int64_t offsets[rank > 0 ? rank : 1];
};

template <int... B, class T>
auto make_block_ptr(T* base, index_list<sizeof...(B)> shape, index_list<sizeof...(B)> strides,
                    index_list<sizeof...(B)> offsets) {
  if constexpr (!pointer_element<T*>) {
    static_assert(pointer_element<T*>,
                  "pointer_element: block pointers point to element types (bool, int8_t, uint8_t, int32_t, uint32_t, "
                  "int64_t, float, half, bfloat16)");
  } else if constexpr (detail::tile_type_rules_hold<std::remove_cv_t<T>, B...>()) {
    block_ptr<T, B...> bp;
    bp.base = base;
    for (int k = 0; k < static_cast<int>(sizeof...(B)); ++k) {
      bp.shape[k] = shape.v[k];
      bp.strides[k] = strides.v[k];
      bp.offsets[k] = offsets.v[k];
    }
    return bp;
  }
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
void store(const block_ptr<T, B...>& bp, const V& values) {
  if constexpr (std::is_const_v<T>) {
    static_assert(writable_pointer<T*>, "writable_pointer: store writes through block pointers to non-const elements");
  } else if constexpr (!(scalar_value<V> || std::is_same_v<V, tile<T, B...>>)) {
    static_assert(value_matches_pointee<V, tile<T*, B...>> && std::is_same_v<V, tile<T, B...>>,
                  "value_matches_pointee: store(block_ptr<T, B...>, v) takes a scalar or a tile<T, B...> (use "
                  "cast<U>)");
  } else {
    constexpr detail::shape_t S = detail::make_shape<B...>();
    detail::for_each_block_element(bp, [&](int i, bool in, T* p) {
      if (in) *p = convert<T>(detail::pick<S>(values, i));
    });
  }
}

// ---- hints (promises; the host twin checks them) -----------------------------------------------

/// multiple_of and max_contiguous apply to integers and pointers (scalars or tiles).
template <class X>
concept hintable = integer_operand<X> || pointer_operand<X>;

/// max_contiguous applies to tiles of integers or pointers.
template <class X>
concept hintable_tile = tile_value<X> && hintable<X>;

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
auto multiple_of(const X& x, std::int64_t n, detail::source_location loc = detail::source_location::current()) {
  static_assert(hintable<X>, "hintable: multiple_of applies to integers and pointers (scalars or tiles)");
  if constexpr (hintable<X>) {
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
}

/// Promise that along the last axis, each run of n values starting at a multiple of n is
/// contiguous (v, v+1, ...; for pointers, consecutive elements).
template <class X>
auto max_contiguous(const X& x, int n, detail::source_location loc = detail::source_location::current()) {
  static_assert(hintable_tile<X>, "hintable_tile: max_contiguous applies to tiles of integers or pointers");
  if constexpr (hintable_tile<X>) {
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
}

}  // namespace tilecc
