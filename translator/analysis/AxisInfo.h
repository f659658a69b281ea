// Axis information (Triton's lattice): for each integer, boolean or pointer value and each
// dimension, the contiguity (runs of consecutive values), divisibility (a power of two that
// divides the first value of every run; bytes for pointers) and constancy (runs of equal
// values). All three are powers of two; scalars have one entry.
//
// From it, the chooseAccessWidths pass gives every tile load, store and atomic its access
// width: the widest vector of consecutive elements a thread can move at once.
#pragma once

#include "ir/IR.h"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace tilecc::ir {

struct AxisInfo {
  std::vector<std::int64_t> contiguity, divisibility, constancy;
  bool operator==(const AxisInfo&) const = default;
};

/// The largest divisibility the analysis tracks (the value 0 is divisible by everything).
inline constexpr std::int64_t kMaxDivisibility = std::int64_t{1} << 30;

/// Facts about parameters, from promises or from a specialised variant: parameter index →
/// divisibility (bytes for pointers, the value for integers), or kEqualsOne; and
/// nonNegativeKey(index) → kNonNegative for integers assumed >= 0.
using ParamFacts = std::map<int, std::int64_t>;

/// Axis information for every value of the kernel. With `assumeNonNegative` and `assumeParams`
/// (for a specialised variant, whose launcher checks what it assumes and otherwise launches
/// another), a tile `/` or `%` whose dividend is not known to be non-negative keeps its runs
/// anyway where the dividend would be non-negative if some program-uniform scalars were: integer
/// parameters (and values of the arguments alone, taken apart into them: `k0 >= 0`), and block
/// indices of the kernel's top-level block, computed from program ids, parameters and constants
/// (`pid_n` in `(pid_n * BN + arange<BN>()) % N`, where pid_n comes from a grouped program order
/// through a `min` of differences), which the launcher bounds over the grid (GridCheck). Those
/// scalars are added to the set; never values of memory or of a loop.
std::map<const Value*, AxisInfo> analyzeAxes(const Kernel& k, const ParamFacts& facts,
                                             std::set<const Value*>* assumeNonNegative = nullptr, bool assumeParams = false);

/// A tile load, store or atomic: the ops accessOf describes.
inline bool isTileAccess(const Op& o) {
  return (o.kind == OpKind::Load || o.kind == OpKind::Store || o.kind == OpKind::AtomicAdd) && o.operands[0]->type.isTile();
}

/// The access (vector width along the most contiguous axis, up to 16 bytes, and every fact
/// that keeps it narrower) of a tile load, store or atomic under the analysis `info`.
/// `vectorAtomics`: the target adds vectors of f32 at once (sm_90's red.global.add.v2/.v4.f32),
/// which serves atomics whose old values go unused (`oldUsed` false).
Access accessOf(const Op& o, const std::map<const Value*, AxisInfo>& info, bool vectorAtomics = false, bool oldUsed = true);

/// The facts the kernel's promises give (TILECC_ALIGNED, TILECC_MULTIPLE_OF).
ParamFacts promisedFacts(const Kernel& k);
/// Those and what a specialised variant assumes (Kernel::assumed).
ParamFacts variantFacts(const Kernel& k);

}  // namespace tilecc::ir
