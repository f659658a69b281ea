// The other half of hoist-guarded-loads, for pipeline-loops: which copies may be skipped.
#pragma once

#include "ir/IR.h"

#include <vector>

namespace tilecc::ir {

/// For a load of loop body `body` that fills a buffer through `store`: the scalar c its mask is
/// `mask ∧ c` or `c` for, where every other reader of the buffer (`bufferUsers`) is under
/// `if (c)` in `body` (as hoist-guarded-loads leaves a load it moved out of that `if`). Where c
/// is false nothing reads what a copy of the load would write, so the copy need not be issued.
/// Null otherwise.
const Value* guardOfCopy(const Op& load, const Op* store, const std::vector<Op*>& bufferUsers, const Block& body);

}  // namespace tilecc::ir
