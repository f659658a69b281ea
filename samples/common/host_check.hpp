// Helpers for the samples' host tests: fresh random inputs (seed printed; TILECC_SEED
// reproduces a run), references in double, relative errors, poisoned outputs.
#pragma once

#include <tilecc/tile.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

namespace sample {

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
  int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
};

inline double to_double(float v) { return v; }
inline double to_double(tilecc::half v) { return static_cast<float>(v); }
inline double to_double(tilecc::bfloat16 v) { return static_cast<float>(v); }

template <class T>
std::vector<T> random_vector(rng& r, std::size_t n, float scale = 1.0f) {
  std::vector<T> v(n);
  for (auto& e : v) e = T(r.normal(scale));
  return v;
}

template <class T>
T poison() {
  return T(std::numeric_limits<float>::quiet_NaN());
}

/// ||out - ref|| / ||ref|| over the listed elements; any NaN/inf in out (an element that was
/// never written stays NaN) gives infinity.
struct error_meter {
  double diff2 = 0, ref2 = 0;
  bool bad = false;
  void add(double out, double ref) {
    if (!std::isfinite(out)) bad = true;
    diff2 += (out - ref) * (out - ref);
    ref2 += ref * ref;
  }
  double value() const {
    if (bad) return std::numeric_limits<double>::infinity();
    return ref2 == 0 ? std::sqrt(diff2) : std::sqrt(diff2 / ref2);
  }
};

/// Collects checks and prints one line each; finish() gives the process exit code.
struct report {
  const char* sample;
  int checks = 0, failures = 0;
  explicit report(const char* name) : sample(name) {
    std::printf("%s, seed %llu (set TILECC_SEED to reproduce)\n", name,
                static_cast<unsigned long long>(seed()));
  }
  void check(const char* what, double err, double tol) {
    ++checks;
    const bool ok = err <= tol;  // NaN fails
    if (!ok) ++failures;
    std::printf("  %-52s rel err %.3e (tol %.0e)  %s\n", what, err, tol, ok ? "ok" : "FAIL");
  }
  void expect(const char* what, bool ok) {
    ++checks;
    if (!ok) ++failures;
    std::printf("  %-52s %s\n", what, ok ? "ok" : "FAIL");
  }
  int finish() const {
    std::printf("%s: %d passed, %d failed\n", sample, checks - failures, failures);
    return failures == 0 ? 0 : 1;
  }
};

}  // namespace sample
