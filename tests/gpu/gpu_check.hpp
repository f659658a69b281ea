// Helpers for GPU tests: each runs a translated kernel and its host twin on the same fresh
// random inputs and compares — the installed <tilecc/gpu_testing.hpp>, which users' tests get
// too. Exits 77 (CTest: skipped) where no GPU is present.
#pragma once

#include "common/host_check.hpp"

#include <tilecc/gpu_testing.hpp>

#include <cstdlib>
#include <string>

#define GPU_CHECK(call) TILECC_CUDA_CHECK(call)

namespace gpu {
using namespace tilecc::testing::gpu;

/// The suffix of the fastest variant this device's path launches for aligned arguments: `_tma`
/// on sm_90a (compute capability 9.0 without TILECC_FORCE_SM80), else `_aligned`.
inline const char* fast_variant() {
  int major = 0, minor = 0;
  TILECC_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  TILECC_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
  return std::getenv("TILECC_FORCE_SM80") == nullptr && major == 9 && minor == 0 ? "_tma" : "_aligned";
}

/// Expects the variant a launch took (`took`, from launched_variant) to end with `expected`, or
/// with "general" to be neither specialised variant.
inline void expect_variant(sample::report& rep, const std::string& what, const std::string& took, const std::string& expected) {
  auto ends = [&](const std::string& e) { return took.size() >= e.size() && took.compare(took.size() - e.size(), std::string::npos, e) == 0; };
  const bool general = expected == "general";
  rep.expect(what + ": launched " + took + ", " + (general ? "the general kernel" : "a variant ending " + expected),
             general ? !ends("_tma") && !ends("_aligned") && !took.empty() : ends(expected));
}
}  // namespace gpu
