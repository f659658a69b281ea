// Copies of IR: whole kernels (variants are clones run through the same pass list) and ops
// with their regions (the pipeliner recomputes address chains for later iterations).
#pragma once

#include "ir/Builder.h"

#include <map>
#include <memory>

namespace tilecc::ir {

using ValueMap = std::map<const Value*, Value*>;

/// A deep copy: same values (ids, names, types, layouts), ops, attributes and layout table.
std::unique_ptr<Kernel> clone(const Kernel& k);

/// Copies `op` (and its regions) at the builder's insertion point. Operands found in `map`
/// are replaced; the copy's results (and block arguments) are added to `map`.
Op* cloneOp(Builder& b, const Op& op, ValueMap& map);

/// Copies the attributes of `from` into `to` (everything but operands, results and regions).
void copyAttributes(const Op& from, Op& to);

}  // namespace tilecc::ir
