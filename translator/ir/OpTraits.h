// What each op kind is, in one table: its name in the textual IR, the level it belongs to,
// whether passes may merge, move or drop it, which attributes it uses (and so prints and
// parses), and how it touches shared memory. Passes ask the table instead of repeating lists
// of kinds.
#pragma once

#include "ir/IR.h"

namespace tilecc::ir {

/// Attributes an op kind uses, as bits of OpTraits::attrs.
enum Attr : unsigned {
  kAttrAxis = 1u << 0,
  kAttrBinOp = 1u << 1,
  kAttrUnOp = 1u << 2,
  kAttrReduce = 1u << 3,
  kAttrCmp = 1u << 4,
  kAttrHint = 1u << 5,  // hint kind and hint value (intValue)
  kAttrConst = 1u << 6,  // intValue or floatValue, by the result's type
  kAttrTf32 = 1u << 7,
  kAttrAccess = 1u << 8,
  kAttrOffset = 1u << 9,
  kAttrTransposed = 1u << 10,
  kAttrCount = 1u << 11,
  kAttrSync = 1u << 12,
  kAttrInstr = 1u << 13,
  kAttrWarpGroup = 1u << 14,
  kAttrRegs = 1u << 15,
  kAttrNote = 1u << 16,
};

/// Which levels an op may appear at.
enum class OpLevel : std::uint8_t { Both, TileOnly, GpuOnly };

/// How the printer family groups ops (one file of the CUDA printer per family).
enum class Family : std::uint8_t { Scalar, Shape, Elementwise, Memory, Reduce, Control, Shared, Mma, Async, Hopper, TileOnly };

struct OpTraits {
  const char* name;
  OpLevel level;
  Family family;
  bool pure;         // no side effects: CSE may merge it, DCE drop it, passes recompute it
  bool removable;    // DCE may drop it when its results are unused (pure ops, allocations, reads)
  bool elementwise;  // the result's elements follow the operands' element for element
  bool terminator;
  unsigned attrs;
};

const OpTraits& traits(OpKind k);
inline const char* name(OpKind k) { return traits(k).name; }

/// Op kind by its textual name; false when unknown.
bool opKindByName(const std::string& name, OpKind& out);

}  // namespace tilecc::ir
