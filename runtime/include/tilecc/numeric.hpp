// tilecc: element types and conversions shared by the host twin.
//
// `half` and `bfloat16` are storage types: IEEE binary16 and bfloat16 bit patterns,
// constructible from float with round-to-nearest-even and explicitly convertible to float.
// `convert<To>(from)` is the one conversion every operation of the host twin uses, so that
// casts, loads with `other`, stores of scalars and reductions all round the same way.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace tilecc {

namespace detail {

inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Round-to-nearest-even float -> binary16, with overflow to infinity, gradual underflow and
// NaN as CUDA gives it (0x7fff), so that host and device results match bit for bit.
inline std::uint16_t float_to_half_bits(float f) {
  const std::uint32_t x = float_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return 0x7fffu;  // NaN: canonical, as CUDA's __float2half_rn
  if (a == 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (a >= 0x477ff000u)  // >= 65520: rounds to infinity
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  const int e = static_cast<int>(a >> 23);
  if (e < 113) {  // below 2^-14: binary16 subnormal (units of 2^-24)
    if (e < 102) return static_cast<std::uint16_t>(sign);  // below 2^-25: rounds to zero
    const std::uint32_t m = (a & 0x7fffffu) | 0x800000u;
    const int shift = 126 - e;
    std::uint32_t h = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(e - 112) << 10) | ((a >> 13) & 0x3ffu);
  const std::uint32_t rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry moves into the exponent
  return static_cast<std::uint16_t>(sign | h);
}

inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) {
    const float v = static_cast<float>(m) * 5.9604644775390625e-8f;  // m * 2^-24, exact
    return bits_float(float_bits(v) | sign);
  }
  if (e == 31) return bits_float(sign | 0x7f800000u | (m << 13));
  return bits_float(sign | ((e + 112) << 23) | (m << 13));
}

inline std::uint16_t float_to_bfloat16_bits(float f) {
  const std::uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fffu;  // NaN: canonical, as CUDA's __float2bfloat16_rn
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

// TF32 as the tensor cores see it (cvt.rna.tf32.f32): 10 mantissa bits, ties away from zero.
inline float round_to_tf32(float f) {
  const std::uint32_t x = float_bits(f);
  if ((x & 0x7f800000u) == 0x7f800000u) return f;  // inf, NaN
  return bits_float((x + 0x1000u) & 0xffffe000u);
}

}  // namespace detail

/// IEEE binary16. Arithmetic happens in float: convert, compute, convert back.
struct half {
  std::uint16_t bits;
  half() = default;
  half(float f) : bits(detail::float_to_half_bits(f)) {}
  explicit operator float() const { return detail::half_bits_to_float(bits); }
  static half from_bits(std::uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
};

/// bfloat16 (the upper half of a float). Arithmetic happens in float.
struct bfloat16 {
  std::uint16_t bits;
  bfloat16() = default;
  bfloat16(float f) : bits(detail::float_to_bfloat16_bits(f)) {}
  explicit operator float() const { return detail::bits_float(static_cast<std::uint32_t>(bits) << 16); }
  static bfloat16 from_bits(std::uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
};

// ---- element type classes (named so that constraint failures read well) ----------------

template <class T>
concept float_element = std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

template <class T>
concept integer_element = std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> ||
                          std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
                          std::is_same_v<T, std::int64_t>;

/// Element types of the language: numbers and bool.
template <class T>
concept element_type = std::is_same_v<T, bool> || integer_element<T> || float_element<T>;

/// Numbers that take + - * /: every element type but bool.
template <class T>
concept numeric_element = integer_element<T> || float_element<T>;

/// `T*` or `const T*` for an element type T: the element type of pointer tiles.
template <class T>
concept pointer_element = std::is_pointer_v<T> && element_type<std::remove_cv_t<std::remove_pointer_t<T>>>;

namespace detail {

template <class T>
using pointee_t = std::remove_cv_t<std::remove_pointer_t<T>>;

// Arithmetic on half/bfloat16 happens in float.
template <class T>
using calc_t = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;

template <class T>
calc_t<T> up(T v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>)
    return static_cast<float>(v);
  else
    return v;
}

// Truncate toward zero and saturate; NaN gives 0 (CUDA's cvt.rzi.sat).
template <class I>
I saturating_cast(double x) {
  if (x != x) return 0;
  constexpr double hi = [] {
    double p = 1.0;
    for (int i = 0; i < std::numeric_limits<I>::digits; ++i) p *= 2.0;
    return p;
  }();
  if (x >= hi) return std::numeric_limits<I>::max();
  if (x <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  return static_cast<I>(x);
}

}  // namespace detail

/// The conversion every operation of the host twin uses: C++ semantics except that
/// floating → integer truncates and saturates (NaN → 0), integer → integer wraps, and
/// narrowing floating conversions round to nearest even.
template <class To, class From>
To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, half> || std::is_same_v<From, bfloat16>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != 0;
  } else if constexpr (std::is_same_v<To, half> || std::is_same_v<To, bfloat16>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return detail::saturating_cast<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace tilecc
