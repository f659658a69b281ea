// Tuning a kernel family on the GPU and writing the tuning table tilecc reads
// (`--tuning-table`, or tilecc_add_kernels(... TUNING_TABLE file)). The user's tuner program
// allocates inputs for each shape and calls tune_shape with the family's per-configuration
// launcher; see README, "Kernel families".
//
//   tilecc::tune::table t;
//   for (auto [M, N, K] : shapes) {
//     ... allocate and fill a, b, c ...
//     auto r = tilecc::tune::tune_shape(
//         "matmul_half_false_none", matmul_half_false_none_configs, matmul_half_false_none_config_count,
//         {{"M", M}, {"N", N}, {"K", K}},
//         [&](int i) { return launch_matmul_half_false_none_config(i, nullptr, a, b, c, ...); },
//         [&] { return sample_of(c); });   // the output, as doubles (all of it or a fixed sample)
//     tilecc::tune::print(r, stdout);
//     t.add(r);
//   }
//   t.write("matmul.tune");
#pragma once

#include <tilecc/bench.hpp>
#include <tilecc/error_meter.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

namespace tilecc::tune {

struct candidate {
  std::string config;
  bool ok = false;
  std::string why;  // why not ok: the launch's error, or the output's mismatch
  double median_ms = 0;
  double error = 0;  // relative error against the first configuration's output
};

struct shape_result {
  std::string family;
  int arch = 0;  // the device's compute capability (90 for sm_90)
  std::vector<std::pair<std::string, long long>> key;
  std::vector<candidate> candidates;
  int best = -1;  // index of the fastest correct configuration (-1: none)
};

inline int device_arch() {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  return major * 10 + minor;
}

/// Times every configuration of a family at one shape: launch(i) launches configuration i
/// (returning cudaError_t); output() returns the output after a launch. The first
/// configuration's output is the reference: one whose output differs by more than `tol`
/// (relative error), or whose launch fails, is reported and never chosen. The correct ones are
/// timed with bench::time (warm-up, median, L2 flushed before each run) in `rounds` rounds, each
/// in a new order (bench::round_orders), so that clocks drifting over the run and the kernel
/// that ran just before fall on all alike; a configuration's time is the median of its rounds.
/// Nine by default: three picked, on an H100, a configuration 3% slower than the best at a shape
/// where two lie that close (tuning runs once, offline: robustness is worth the minutes).
template <class Launch, class Output>
shape_result tune_shape(std::string family, const char* const* configs, int count, std::vector<std::pair<std::string, long long>> key,
                        Launch&& launch, Output&& output, double tol = 1e-2, const bench::options& opts = {}, int rounds = 9) {
  shape_result r;
  r.family = std::move(family);
  r.arch = device_arch();
  r.key = std::move(key);
  std::vector<double> reference;
  for (int i = 0; i < count; ++i) {
    candidate c;
    c.config = configs[i];
    cudaError_t e = launch(i);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      c.why = std::string("launch failed: ") + cudaGetErrorString(e);
      cudaGetLastError();
      r.candidates.push_back(std::move(c));
      continue;
    }
    const std::vector<double> out = output();
    if (reference.empty()) reference = out;
    testing::error_meter err;  // the same measure as the host-twin tests'
    err.bad = out.size() != reference.size();
    for (std::size_t j = 0; !err.bad && j < out.size(); ++j) err.add(out[j], reference[j]);
    c.error = err.value();
    c.ok = c.error <= tol;
    if (!c.ok) c.why = "output differs from " + std::string(configs[0]) + "'s (relative error " + std::to_string(c.error) + ")";
    r.candidates.push_back(std::move(c));
  }
  std::vector<std::vector<double>> times(r.candidates.size());
  const int n = static_cast<int>(r.candidates.size());
  for (const std::vector<int>& order : bench::round_orders(n, std::max(1, rounds))) {
    for (const int i : order) {
      candidate& c = r.candidates[static_cast<std::size_t>(i)];
      if (!c.ok) continue;
      const bench::stats s = bench::time([&] { return launch(i); }, opts);
      if (s.error != cudaSuccess) {
        c.ok = false;
        c.why = std::string("timing failed: ") + cudaGetErrorString(s.error);
        continue;
      }
      times[static_cast<std::size_t>(i)].push_back(s.median_ms);
    }
  }
  for (int i = 0; i < n; ++i) {
    candidate& c = r.candidates[static_cast<std::size_t>(i)];
    const std::vector<double>& t = times[static_cast<std::size_t>(i)];
    if (!c.ok || t.empty()) continue;
    c.median_ms = bench::median(t);
    if (r.best < 0 || c.median_ms < r.candidates[static_cast<std::size_t>(r.best)].median_ms) r.best = i;
  }
  return r;
}

inline std::string key_text(const shape_result& r) {
  std::string s;
  for (const auto& [n, v] : r.key) s += (s.empty() ? "" : " ") + n + "=" + std::to_string(v);
  return s;
}

/// The tuner's report for one shape: every configuration's median (and why one was rejected),
/// relative to the chosen one.
inline void print(const shape_result& r, std::FILE* out) {
  std::fprintf(out, "%s sm_%d %s\n", r.family.c_str(), r.arch, key_text(r).c_str());
  const double best = r.best >= 0 ? r.candidates[static_cast<std::size_t>(r.best)].median_ms : 0;
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const candidate& c = r.candidates[i];
    if (c.ok)
      std::fprintf(out, "  %-40s %9.4f ms  %5.3fx%s\n", c.config.c_str(), c.median_ms, c.median_ms / best,
                   static_cast<int>(i) == r.best ? "  <- chosen" : "");
    else
      std::fprintf(out, "  %-40s rejected: %s\n", c.config.c_str(), c.why.c_str());
  }
}

/// Tuning table lines, sorted (by family, architecture, then the key's values): diffable.
class table {
 public:
  void add(const shape_result& r) {
    if (r.best >= 0) rows_.push_back(r);
  }
  std::string text() const {
    std::vector<const shape_result*> rows;
    for (const auto& r : rows_) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const shape_result* a, const shape_result* b) {
      std::vector<long long> ka, kb;
      for (const auto& k : a->key) ka.push_back(k.second);
      for (const auto& k : b->key) kb.push_back(k.second);
      return std::tie(a->family, a->arch, ka) < std::tie(b->family, b->arch, kb);
    });
    std::string s = "# tilecc tuning table: <family> sm_<arch> <key>=<value>... -> <configuration> <median ms>\n";
    for (const shape_result* r : rows) {
      const candidate& c = r->candidates[static_cast<std::size_t>(r->best)];
      char ms[32];
      std::snprintf(ms, sizeof ms, "%.4f", c.median_ms);
      s += r->family + " sm_" + std::to_string(r->arch) + " " + key_text(*r) + " -> " + c.config + " " + ms + "\n";
    }
    return s;
  }
  bool write(const std::string& path) const {
    std::ofstream f(path, std::ios::binary);
    f << text();
    return static_cast<bool>(f);
  }

 private:
  std::vector<shape_result> rows_;
};

}  // namespace tilecc::tune
