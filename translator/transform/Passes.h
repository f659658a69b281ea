// The passes, one free function per file of this folder. driver/Pipeline.cpp runs them in one
// list (Tile level, then GPU level); tilecc-opt runs any one of them on textual IR.
#pragma once

#include "analysis/AxisInfo.h"
#include "ir/IR.h"
#include "target/Target.h"

#include <functional>
#include <string>

namespace tilecc::ir {

// ---- both levels ----

/// Folds scalar constant arithmetic (constants compared by bit pattern), merges identical
/// pure ops within a block and its nested regions, removes ops whose results are unused and
/// loop-carried values that never change.
void canonicalize(Kernel& k);

// ---- Tile level ----

/// Sets the access (vector width, axis, limiting facts) of every tile load, store and atomic
/// from the axis analysis under `facts`; `vectorAtomics`: the target adds f32 vectors at once.
void chooseAccessWidths(Kernel& k, const ParamFacts& facts, bool vectorAtomics = false);

/// Gives every tile value a layout (Kernel::layouts), inserting convert_layout where a value is
/// needed in another layout and cannot be recomputed cheaply in it. Dot results take wgmma's
/// accumulator layout where `t` has wgmma and the dot fits it, mma.sync's otherwise.
void assignLayouts(Kernel& k, const Target& t);

/// Drops unused entries of the layout table and numbers the rest in a canonical order (by
/// content), so that an edit elsewhere in the kernel does not renumber them.
void renumberLayouts(Kernel& k);

// ---- Tile level → GPU level ----

/// Makes shared memory explicit: dot becomes local_alloc + shared_store of its operands + mma;
/// layout conversions and reshapes go through a scratch buffer (shared_store + shared_load);
/// cross-warp reductions get a scratch operand; atomics whose old values must reach
/// replicated copies share them through a buffer. The kernel is at the GPU level afterwards.
void makeSharedExplicit(Kernel& k, const Target& t);

// ---- GPU level ----

/// Moves the staging (local_alloc + shared_store) of loop-invariant values out of loops: a
/// dot operand defined before a loop is written to shared memory once.
void hoistSharedStores(Kernel& k);

/// Dot operands loaded under an `if` at a loop body's top level move out of it, their mask
/// joined with the condition (false: no lane reads memory), where pipeline-loops then copies
/// them ahead (block-sparse K loops).
void hoistGuardedLoads(Kernel& k, const Target& t);

/// Software pipelining: in `for` loops, loads that only feed shared_store become cp.async
/// copies into rings of num_stages slots, issued num_stages − 1 iterations ahead (behind the
/// iteration's dot where that lets the dot start first), with the prologue before the loop and
/// a final wait after it.
void pipelineLoops(Kernel& k, const Target& t);
/// For the report (run by pipelineLoops): a note on each dot operand's load in a loop that was
/// not copied ahead because of the loop's form or an `if` around it.
void notePipelineMisses(Kernel& k);

/// On sm_90a's TMA variant: the kernel's TMA-pipelined loop is split between a producer warp
/// group (one warp issues the copies, waiting on "empty" mbarriers) and the kernel's warps as
/// consumers (they release each slot after its last wgmma), with register reallocation; per the
/// warp_specialize option (unset: where shared memory allows one program per SM anyway). False
/// where the kernel stays as it is (nothing to split).
bool warpSpecialize(Kernel& k, const Target& t);

/// On sm_90a's TMA variant where warpSpecialize declined: consecutive TMA loops whose boxes have
/// the same shapes share the first loop's ring, numbered on from loop to loop, and a loop's
/// last iterations copy the next loop's first boxes (causal attention's two key loops run as
/// one pipeline); false where nothing changes.
bool chainTmaLoops(Kernel& k, const Target& t);

/// After warpSpecialize: a persistent grid (one program per SM, each running the grid's programs
/// in turn, the rings carried from tile to tile); the launcher passes the grid as a parameter.
bool persistentGrid(Kernel& k, const Target& t);

/// On sm_90a's TMA variant: tile stores after a loop whose pointers and mask are a box go
/// through a swizzled buffer and one thread's bulk copies (tma_store), waited for before reuse.
void tmaStores(Kernel& k, const Target& t);

/// After warpSpecialize: the consumers' loop with two chained wgmma (attention: Q·Kᵀ, softmax,
/// P·V) is software-pipelined so that iteration j + 1's first wgmma and j's second are issued
/// together and j + 1's softmax overlaps j's P·V; false where nothing changes.
bool overlapDots(Kernel& k, const Target& t);

/// After warpSpecialize: two or more consumer warp groups take turns issuing the wgmma batches of
/// a loop that computes on their results (attention's softmax), so that one group's
/// computation overlaps the other's wgmma (named barriers); false where nothing changes. Not in
/// the translator's pipeline (slower on every attention kernel measured); tilecc-opt runs it.
bool takeTurns(Kernel& k, const Target& t);

/// Last: a select inside a loop whose mask is built from comparisons of affine index tiles
/// (`offs_n < seq_len`, a causal `offs_m >= offs_n`) runs only where a uniform 64-bit test of
/// the tiles' extreme values says some element may be false; elsewhere it yields its first value
/// and computes no mask.
void versionMasks(Kernel& k);

/// A pointer tile a loop carries and advances by a uniform step, read one address at a time
/// (16 or more addresses per thread), becomes a carried 64-bit offset, the addresses rebuilt
/// each iteration from the terms of its initial value's outer sum (base + rows·stride +
/// cols·stride), so that only those terms stay live across the loop.
void rematerializePointers(Kernel& k);

/// Places every buffer in shared memory by liveness (buffers whose lifetimes do not overlap
/// share bytes) and sets Kernel::sharedBytes.
void allocateShared(Kernel& k);

/// Inserts barriers where shared-memory accesses of different threads conflict (a warp
/// barrier where only threads of one warp are involved, none where there is no hazard), and
/// decides the sync of the ops that synchronise inside (reductions across warps).
void insertBarriers(Kernel& k);

/// The passes tilecc-opt can run by name, in pipeline order.
struct NamedPass {
  const char* name;
  const char* what;
  std::function<void(Kernel&, const Target&)> run;
};
const std::vector<NamedPass>& namedPasses();

}  // namespace tilecc::ir
