// Warp specialisation's structure, as the passes after warp-specialize find it.
#pragma once

#include "ir/IR.h"

namespace tilecc::ir {

/// The kernel's top-level warp_group with two regions (consumers in region 0, the producer warp
/// group in region 1), or null where the kernel is not warp-specialised.
Op* warpRoles(Kernel& k);

/// The consumers' loop whose body issues wgmma (the first, at any depth of region 0), or null.
Op* consumerDotLoop(Kernel& k);

/// Whether the consumer warp groups take turns at the tensor cores (take-turns placed its barriers).
bool takesTurns(const Kernel& k);

}  // namespace tilecc::ir
