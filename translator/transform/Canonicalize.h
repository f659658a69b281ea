// Canonicalisation: constant folding, common subexpression elimination, dead code removal.
#pragma once

#include "ir/IR.h"

namespace tilecc::ir {

/// Folds scalar constant arithmetic, merges identical pure ops (same kind, attributes,
/// operands, result types and layouts) within a block and its nested regions, and removes
/// pure ops whose results are unused. Safe before and after layout assignment.
void canonicalize(Kernel& k);

}  // namespace tilecc::ir
