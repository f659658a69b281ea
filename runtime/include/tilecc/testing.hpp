// Test helpers for kernels and their host twins (host C++ only; the GPU side is
// <tilecc/gpu_testing.hpp>): fresh random inputs from a seed that is printed (TILECC_SEED
// reproduces a run), NaN poison for outputs, relative errors against a reference, and a report
// whose finish() is the process's exit code. tilecc's own tests use these.
//
//   tilecc::testing::report rep("my kernel");
//   tilecc::testing::rng r;
//   auto x = tilecc::testing::random_vector<float>(r, 1000 + r.range(0, 100));  // ragged size
//   ...
//   rep.check("out vs reference", err, 1e-5);
//   return rep.finish();
#pragma once

#include <tilecc/error_meter.hpp>
#include <tilecc/tile.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace tilecc::testing {

/// The run's seed: TILECC_SEED if set, else a fresh random one (printed by report).
inline std::uint64_t seed() {
  static const std::uint64_t s = [] {
    if (const char* env = std::getenv("TILECC_SEED")) return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 10));
    return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  }();
  return s;
}

struct rng {
  std::mt19937_64 gen{seed()};
  float normal(float scale = 1.0f) { return std::normal_distribution<float>(0.0f, scale)(gen); }
  /// Uniform in [lo, hi] (both included).
  int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
};

inline double to_double(float v) { return v; }
inline double to_double(double v) { return v; }
inline double to_double(tilecc::half v) { return static_cast<float>(v); }
inline double to_double(tilecc::bfloat16 v) { return static_cast<float>(v); }

/// n normally distributed values (standard deviation `scale`), rounded to T.
template <class T>
std::vector<T> random_vector(rng& r, std::size_t n, float scale = 1.0f) {
  std::vector<T> v(n);
  for (auto& e : v) e = T(r.normal(scale));
  return v;
}

/// The value outputs start as: a quiet NaN, so an element a kernel never writes stays
/// recognisable (and one it writes by mistake too).
template <class T>
T poison() {
  return T(std::numeric_limits<float>::quiet_NaN());
}

/// Relative error of `out` against `ref` (the host twin's output, or a reference): elements
/// `ref` holds as NaN (poison the kernel must not touch) must be NaN in `out` too
/// (`untouched_ok`), equal infinities match, the rest go through error_meter.
template <class T>
double compare(const std::vector<T>& out, const std::vector<T>& ref, bool& untouched_ok) {
  error_meter err;
  untouched_ok = out.size() == ref.size();
  for (std::size_t i = 0; i < ref.size() && i < out.size(); ++i) {
    const double t = to_double(ref[i]), g = to_double(out[i]);
    if (std::isnan(t)) {
      untouched_ok = untouched_ok && std::isnan(g);
      continue;
    }
    if (std::isinf(t) && g == t) continue;
    err.add(g, t);
  }
  return err.value();
}

/// Collects checks and prints one line each; finish() gives the process exit code.
struct report {
  std::string name;
  int checks = 0, failures = 0;
  explicit report(std::string n) : name(std::move(n)) {
    std::printf("%s, seed %llu (set TILECC_SEED to reproduce)\n", name.c_str(), static_cast<unsigned long long>(seed()));
  }
  void check(const std::string& what, double err, double tol) {
    ++checks;
    const bool ok = err <= tol;  // NaN fails
    if (!ok) ++failures;
    std::printf("  %-52s rel err %.3e (tol %.0e)  %s\n", what.c_str(), err, tol, ok ? "ok" : "FAIL");
  }
  void expect(const std::string& what, bool ok) {
    ++checks;
    if (!ok) ++failures;
    std::printf("  %-52s %s\n", what.c_str(), ok ? "ok" : "FAIL");
  }
  /// out against ref (see compare): the error within tol, and the same elements written.
  template <class T>
  void compare_outputs(const std::string& what, const std::vector<T>& out, const std::vector<T>& ref, double tol) {
    bool untouched = true;
    const double e = compare(out, ref, untouched);
    check(what, e, tol);
    expect(what + ": same elements written", untouched);
  }
  int finish() const {
    std::printf("%s: %d passed, %d failed\n", name.c_str(), checks - failures, failures);
    return failures == 0 ? 0 : 1;
  }
};

}  // namespace tilecc::testing
