// What a GPU target offers the passes: shared memory per block and the instructions the
// generated code may use. Every target-dependent pass reads it; `--arch` picks the targets.
//
// The CUDA code of one target runs on every architecture of its group: the sm_80 path (mma.sync,
// cp.async, ldmatrix) on sm_80 and newer, the sm_90a path (adding wgmma, TMA, mbarrier
// transactions, setmaxnreg) on sm_90a only. A group's shared-memory limit is the smallest of
// its architectures'.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tilecc {

struct Target {
  std::string name;            // the path: "sm_80" or "sm_90a"
  std::vector<std::string> archs;  // the --arch values it serves
  int computeCapability = 80;  // the lowest it runs on (80 → 8.0)
  int sharedLimit = 0;         // bytes per program (dynamic, opted into by the launcher)
  int staticSharedLimit = 48 * 1024;  // above this, shared memory is dynamic
  bool asyncCopy = true;       // cp.async
  bool mmaSync = true;         // mma.sync and ldmatrix
  bool hopper = false;         // wgmma, TMA, mbarrier expect-tx, setmaxnreg (sm_90a)
  /// dot lowers to wgmma on this target where it fits (set for sm_90a unless --no-wgmma; without
  /// it the sm_90a path uses mma.sync like sm_80).
  bool wgmma = false;
  /// Pipelined loads may become TMA copies (the driver sets it for the sm_90a variant that has
  /// its arguments checked and TMA descriptors, whose launcher falls back to the plain aligned one).
  bool tma = false;
  /// Preprocessor condition under which device code of this target may be compiled (bodies of
  /// other architectures are stubs); empty: every architecture of `--arch`.
  std::string guard;
};

/// Bytes of shared memory one block may use on `arch` (sm_80 → 163 KB, sm_90a → 227 KB, ...);
/// nullopt for architectures tilecc does not know.
std::optional<int> sharedLimitOf(const std::string& arch);

/// The targets (code paths) for the architectures of `--arch`, most capable first, each with
/// the smallest shared-memory limit among its architectures. Sets `error` for an architecture
/// tilecc cannot generate code for.
std::vector<Target> targetsFor(const std::vector<std::string>& archs, std::string& error);

/// A target by path name, with the limit of that architecture alone (tilecc-opt, tests).
std::optional<Target> targetNamed(const std::string& name);

}  // namespace tilecc
