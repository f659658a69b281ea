// What a later iteration of a loop can compute ahead of time: the chains of ops that give a
// value of the body from the induction variable, carried inductions and values defined before
// the loop. The pipeliner clones them to issue copies for later iterations; hoist-guarded-loads
// asks the same question before it moves a load out of an `if`.
#pragma once

#include "ir/IR.h"

#include <set>

namespace tilecc::ir {

/// An op a later iteration may run again anywhere: pure scalar, shape or elementwise, without
/// regions; with `scalarLoads`, scalar loads too (the caller has checked that nothing in the
/// loop writes memory, so reading ahead reads the same value).
bool recomputable(const Op& o, bool scalarLoads = false);

/// A carried scalar that every iteration advances by a step no iteration changes (a block
/// pointer's offsets): its step, else null.
const Value* inductionStep(const Block& body, const Value* arg);

/// The ops of `body` that v depends on, when v can be computed anywhere from `iv`, carried
/// inductions (see inductionStep), constants and values defined before the loop through
/// recomputable ops; added to `chain`, with the inductions met in `inductions` (null: none
/// allowed). False if it cannot.
bool chainOf(const Block& body, const Value* v, const Value* iv, std::set<const Op*>& chain,
             std::set<const Value*>* inductions = nullptr, bool scalarLoads = false);

/// Whether buffer `buf`, filled by `store`, is read by nothing but mma or wgmma as an operand
/// (not an accumulator): what pipeline-loops copies ahead (`users`: of the buffer).
bool readAsDotOperandOnly(const Value* buf, const Op* store, const std::vector<Op*>& users);

/// Whether anything in `body` (nested regions included) writes global memory: then a value
/// loaded in one iteration may differ when read ahead, in an earlier one.
bool writesMemory(const Block& body);

}  // namespace tilecc::ir
