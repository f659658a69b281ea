#include "transform/Passes.h"

namespace tilecc::ir {

const std::vector<NamedPass>& namedPasses() {
  static const std::vector<NamedPass> passes = {
      {"canonicalize", "fold constants, merge identical pure ops, remove dead ones", [](Kernel& k, const Target&) { canonicalize(k); }},
      {"choose-access-widths", "vector widths of loads and stores from the axis analysis (promised facts only)",
       [](Kernel& k, const Target& t) { chooseAccessWidths(k, variantFacts(k), t.hopper); }},
      {"assign-layouts", "a layout for every tile, conversions where needed", [](Kernel& k, const Target& t) { assignLayouts(k, t); }},
      {"make-shared-explicit", "dot, conversions, cross-warp reductions and atomics through explicit shared memory",
       [](Kernel& k, const Target& t) { makeSharedExplicit(k, t); }},
      {"hoist-shared-stores", "stage loop-invariant values once, before the loop", [](Kernel& k, const Target&) { hoistSharedStores(k); }},
      {"hoist-guarded-loads", "dot operands loaded under an if in a loop move out of it, masked by its condition",
       [](Kernel& k, const Target& t) { hoistGuardedLoads(k, t); }},
      {"pipeline-loops", "cp.async rings for the loads that feed shared memory in loops",
       [](Kernel& k, const Target& t) { pipelineLoops(k, t); }},
      {"warp-specialize", "a producer warp group issues a TMA loop's copies; the kernel's warps consume",
       [](Kernel& k, const Target& t) { warpSpecialize(k, t); }},
      {"chain-tma-loops", "consecutive TMA loops share one ring; a loop's last iterations copy the next loop's first boxes",
       [](Kernel& k, const Target& t) { chainTmaLoops(k, t); }},
      {"persistent-grid", "a warp-specialised kernel runs its grid's programs in turn, one program per SM",
       [](Kernel& k, const Target& t) { persistentGrid(k, t); }},
      {"overlap-dots", "the consumers' loop of two chained wgmma runs one dot an iteration ahead of the other",
       [](Kernel& k, const Target& t) { overlapDots(k, t); }},
      {"tma-stores", "tile stores after a loop that are boxes go out through shared memory and TMA",
       [](Kernel& k, const Target& t) { tmaStores(k, t); }},
      {"rematerialize-pointers", "carried pointer tiles read one address at a time become a carried offset, the addresses rebuilt per iteration",
       [](Kernel& k, const Target&) { rematerializePointers(k); }},
      {"allocate-shared", "offsets of the buffers by liveness", [](Kernel& k, const Target&) { allocateShared(k); }},
      {"insert-barriers", "barriers from the shared-memory hazard analysis", [](Kernel& k, const Target&) { insertBarriers(k); }},
      {"take-turns", "consumer warp groups take turns at the tensor cores where they compute on wgmma results",
       [](Kernel& k, const Target& t) { takeTurns(k, t); }},
      {"version-masks", "selects in loops skip masks a uniform test proves true everywhere",
       [](Kernel& k, const Target&) { versionMasks(k); }},
  };
  return passes;
}

}  // namespace tilecc::ir
