// Warp specialisation's structure, as the passes after warp-specialize find it.
#pragma once

#include "ir/IR.h"

namespace tilecc::ir {

/// The kernel's top-level warp_group with two regions (consumers in region 0, the producer warp
/// group in region 1), or null where the kernel is not warp-specialised.
Op* warpRoles(Kernel& k);

/// The consumers' loops whose bodies issue wgmma (at any depth of region 0), in program order.
std::vector<Op*> consumerDotLoops(Kernel& k);

/// The first of consumerDotLoops, or null.
Op* consumerDotLoop(Kernel& k);

/// In a consumer loop that keeps its last wgmma batch in flight (its slot released in the
/// next iteration), releases the slot of its last iteration after the final wgmma wait that
/// follows the loop, where the loop ran at all. Nothing where the loop releases each slot in
/// its own iteration.
void releaseLastSlot(Kernel& k, Op& loop);

/// Whether the consumer warp groups take turns at the tensor cores (take-turns placed its barriers).
bool takesTurns(const Kernel& k);

}  // namespace tilecc::ir
