// Helpers for GPU tests: each runs a translated kernel and its host twin on the same fresh
// random inputs and compares — the installed <tilecc/gpu_testing.hpp>, which users' tests get
// too. Exits 77 (CTest: skipped) where no GPU is present.
#pragma once

#include "common/host_check.hpp"

#include <tilecc/gpu_testing.hpp>

#define GPU_CHECK(call) TILECC_CUDA_CHECK(call)

namespace gpu {
using namespace tilecc::testing::gpu;
}  // namespace gpu
