// Prints GPU-level Tile IR as CUDA C++: one __global__ function per kernel variant (the
// KernelPrinter and its Print*.cpp files, one per op family), one host launcher per kernel
// (Launcher.cpp, from a LauncherPlan), and the .cu and .h files around them (CudaFile.cpp).
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilecc {

/// Kernels are defined in this namespace (C++ linkage): a kernel named like a C library or CUDA
/// function (exp, abort, cudaMalloc) cannot clash with the headers the .cu includes.
inline constexpr const char* kKernelNamespace = "tilecc_kernels";

/// Identifiers the printed device code uses unqualified (math functions, intrinsics): no
/// generated name — local, kernel — may equal one, or it would hide it.
const std::set<std::string>& cudaVocabulary();

/// One compiled variant of a kernel.
struct CudaKernel {
  std::string name;
  std::string sourceName;
  std::string kernelText;  // the __global__ function with its header comment
  std::string report;      // --emit=report: layouts, accesses and what limited them, shared memory, barriers
  int threads = 0;
  int sharedBytes = 0;
  bool dynamicShared = false;
  bool persistent = false;  // one program per SM; the grid is passed as the last parameter
  bool usesHalf = false, usesBf16 = false;
};

/// False when the kernel uses something the CUDA printer cannot print (reported as
/// file:line:col: error: ...).
bool printCudaKernel(const ir::Kernel& k, const Target& t, CudaKernel& out);

/// What a launcher does: check the promises, then launch the first variant whose target the
/// device runs and whose assumptions the arguments meet (the last one assumes nothing).
struct LaunchParam {
  std::string type;
  std::string name;
  bool pointer = false;
  std::int64_t aligned = 0, multipleOf = 0;  // promises (TILECC_ALIGNED, TILECC_MULTIPLE_OF)
};
struct LaunchVariant {
  std::string kernel;
  std::vector<std::pair<int, std::int64_t>> assumed;  // parameter index → alignment / divisor
  std::vector<ir::GridCheck> gridChecks;              // facts of every program, bounded over the grid
  int computeCapability = 80;  // 80: every device of the sm_80 path; above: that one alone (sm_90a code runs on 9.0 only)
  int threads = 0;
  int sharedBytes = 0;
  bool dynamicShared = false;
  bool persistent = false;  // launched with min(programs, SMs) programs, the grid as an argument
  /// TMA descriptors the launcher encodes and passes after the arguments (with their element
  /// type); where one cannot be encoded, the next variant runs.
  std::vector<std::pair<ir::TensorMapInfo, ir::ElemType>> maps;
};
struct LauncherPlan {
  std::string name;        // launch_<kernel>
  std::string kernel;      // the kernel's own name (messages)
  std::string sourceName;
  std::vector<LaunchParam> params;
  std::vector<LaunchVariant> variants;  // most specific first
  bool usesHalf = false, usesBf16 = false;
  bool usesTensorMap = false;  // a TMA descriptor parameter (CUtensorMap, from <cuda.h>)
  std::optional<ir::TuneInfo> tune;  // family membership (codegen/Family.h)
};

/// How the launcher starts printed kernel `ck` of GPU-level kernel `k` for `target`: argument
/// checks, threads, shared memory, TMA descriptors, persistence.
LaunchVariant launchVariantOf(const ir::Kernel& k, const Target& target, const CudaKernel& ck);

/// The plan for kernel `k` (parameters and promises) launching `variants` (most specific first).
LauncherPlan planLauncher(const ir::Kernel& k, const std::vector<LaunchVariant>& variants);
std::string printLauncherDecl(const LauncherPlan& p);
std::string printLauncherBody(const LauncherPlan& p);

/// --line-directives: #line directives that map kernel code to the tile source (for nvcc's
/// errors and the debugger's line table) and everything else back to the .cu itself.
struct LineDirectives {
  bool enabled = false;
  std::string outputName;                                     // how the .cu names itself
  std::function<std::string(const std::string&)> sourcePath;  // a source file as the .cu names it
};

/// The .cu file: kernels and launcher definitions. `source` and `header` are file names
/// (no directories: generated files carry no paths beyond what `lines` names).
/// `families`: the family launchers (codegen/Family.h), printed after the others.
std::string printCudaFile(const std::string& source, const std::string& header, const std::vector<CudaKernel>& kernels,
                          const std::vector<LauncherPlan>& launchers, const LineDirectives& lines = {},
                          const std::string& families = {});

/// The launcher header, includable by a host C++ compiler without nvcc.
std::string printHeaderFile(const std::string& source, const std::vector<LauncherPlan>& launchers, const std::string& families = {});

}  // namespace tilecc
