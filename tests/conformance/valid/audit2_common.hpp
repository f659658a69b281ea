// Shared helpers of the second audit's host mains (36_* .. 51_*): random ragged inputs, a
// relative-error check against plain C++ references computed in double, a pass/fail tally.
#pragma once
#include <tilecc/tile.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace a2 {
inline std::mt19937_64& gen() {
  static std::mt19937_64 g{20261128};
  return g;
}
inline int irange(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen()); }
inline float normal(float s = 1.0f) { return std::normal_distribution<float>(0.0f, s)(gen()); }
template <class T>
std::vector<T> randn(std::size_t n, float s = 1.0f) {
  std::vector<T> v(n);
  for (auto& e : v) e = T(normal(s));
  return v;
}
inline double d(float v) { return v; }
inline double d(double v) { return v; }
inline double d(tilecc::half v) { return static_cast<float>(v); }
inline double d(tilecc::bfloat16 v) { return static_cast<float>(v); }
inline double d(int v) { return v; }
inline double d(int64_t v) { return static_cast<double>(v); }

inline int& failures() {
  static int f = 0;
  return f;
}
inline int& checks() {
  static int c = 0;
  return c;
}
// ||out - ref|| / ||ref|| over the first n elements (n = all if 0); plus NaN/inf check.
template <class T, class R>
void check(const char* what, const std::vector<T>& out, const std::vector<R>& ref, double tol) {
  double diff2 = 0, ref2 = 0;
  bool finite = out.size() >= ref.size();
  for (std::size_t i = 0; i < ref.size() && i < out.size(); ++i) {
    const double o = d(out[i]), r = d(ref[i]);
    if (!std::isfinite(o)) finite = false;
    diff2 += (o - r) * (o - r);
    ref2 += r * r;
  }
  const double err = finite ? (ref2 == 0 ? std::sqrt(diff2) : std::sqrt(diff2 / ref2)) : INFINITY;
  ++checks();
  const bool ok = err <= tol;
  if (!ok) ++failures();
  std::printf("  %-60s rel err %.3e (tol %.0e) %s\n", what, err, tol, ok ? "ok" : "FAIL");
}
inline void expect(const char* what, bool ok) {
  ++checks();
  if (!ok) ++failures();
  std::printf("  %-60s %s\n", what, ok ? "ok" : "FAIL");
}
inline int finish(const char* name) {
  std::printf("%s: %d passed, %d failed\n", name, checks() - failures(), failures());
  return failures() == 0 ? 0 : 1;
}
}  // namespace a2
