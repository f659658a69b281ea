// Checks the structural invariants of Tile IR; a failure is an internal error (a tilecc bug).
#pragma once

#include "ir/IR.h"

namespace tilecc::ir {

/// Throws InternalError naming the kernel, op and rule on the first violation.
void verify(const Kernel& k);

}  // namespace tilecc::ir
