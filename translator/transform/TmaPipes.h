// The TMA-pipelined loops pipeline-loops leaves at a kernel's top level (or in the body of a loop
// there), as the passes after it (warp-specialize, chain-tma-loops) find them, and the one ring
// consecutive loops can share.
#pragma once

#include "ir/Builder.h"
#include "ir/Clone.h"
#include "ir/IR.h"

#include <string>
#include <vector>

namespace tilecc::ir {

/// One TMA-pipelined loop, at the kernel's top level or in TmaPipes::outer's body.
struct TmaPipe {
  Op* loop = nullptr;
  Op* wait = nullptr;             // wait(full[read], phase) at the top of the loop body
  Op* copies = nullptr;           // if (ahead < bound) { expect_tx; tma boxes }
  std::vector<Op*> prologue;      // the same before the loop, for its first iterations
  std::vector<const Op*> chain;   // body ops the copies read (pure scalars of the body), in order
  Value* slot = nullptr;          // the ring slot the loop's copies write (carried)
  const Value* ahead = nullptr;   // the iteration they copy for (num_stages − 1 ahead)
  std::vector<Value*> rings;      // the buffers its copies write, in order of first copy
  Value* full() const { return wait->operands[0]; }
};

/// The kernel's TMA loops, in program order, and the copies of loop-invariant operands before
/// the first (TMA loads and expect_tx in the block of the loops). The loops are at the kernel's
/// top level, or in the body of `outer`: a top-level loop holding every TMA copy (a persistent
/// loop written out, Triton's tutorial 09: one output tile per iteration; there the invariant
/// copies are made once per iteration of `outer`).
struct TmaPipes {
  std::vector<TmaPipe> pipes;
  std::vector<Op*> invariant;
  Op* outer = nullptr;
  std::string why;  // why they do not have that form, where findTmaPipes is false
};

/// Finds the kernel's TMA loops: every TMA copy is in a loop's one copy region or its prologue
/// (or a loop-invariant operand's copy before the first loop), and each loop's copies read only
/// its slot, the iteration they copy for and pure scalars. The loops are at the top level, or
/// at the top of one top-level loop's body (`outer`).
/// False (with `why`) where not, or where the kernel has a return. Changes nothing.
bool findTmaPipes(Kernel& k, TmaPipes& out);

/// Whether every pipe's boxes have the first pipe's shapes (one ring can serve them in turn).
bool sameRings(const std::vector<TmaPipe>& pipes);

/// The later pipes read the first pipe's rings and wait on its barriers, from the ring position
/// the loop before them ended with (read slot and phase; with `write`, also the slot the copies
/// write); their own rings, barriers and barrier initialisation go. Needs sameRings.
void shareFirstRing(Kernel& k, std::vector<TmaPipe>& pipes, bool write);

/// At b: the copies of `p`'s loop for its iteration `iteration` into ring slot `slot` (the
/// body's scalars they read, expect_tx and the boxes, without the loop's guard); values in
/// `base` are replaced (the copies of scalars an enclosing loop's body computes).
void cloneCopies(Builder& b, const TmaPipe& p, Value* iteration, Value* slot, const ValueMap& base = {});

/// At b: the ring slot before `slot` (num_stages − 1 before 0).
Value* previousSlot(Builder& b, Value* slot, int stages);

}  // namespace tilecc::ir
