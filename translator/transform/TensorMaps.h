// What the TMA paths (pipeline-loops' copies, tma-stores' epilogue stores) share: a structured
// box's tensor as a descriptor parameter the launcher encodes, and its polynomials as scalar code.
#pragma once

#include "analysis/Im2colAccess.h"
#include "analysis/StructuredAccess.h"
#include "ir/Builder.h"

#include <string>

namespace tilecc::ir {

/// A TMA descriptor parameter (after the others) for the tensor of `box`, copied one panel (the
/// swizzle's width: 128, 64 or 32 bytes) of the swizzled buffer type `buffer` at a time; recorded
/// in Kernel::tensorMaps.
Value* addTensorDescriptor(Kernel& k, const StructuredBox& box, const Type& buffer, const std::string& name);

/// The shift of an im2col descriptor's windows for a tensor of `rank` axes: the corners move by
/// −shift (within the driver's range for the rank) and the copies' offsets are tap + shift.
int im2colShift(int rank);

/// An im2col TMA descriptor parameter for `box`, copied one panel of channels (the swizzle's
/// width) of the swizzled buffer type `buffer` at a time; recorded in Kernel::tensorMaps.
Value* addIm2colDescriptor(Kernel& k, const Im2colBox& box, const Type& buffer, const std::string& name);

/// A polynomial's value as an i32 scalar, with the atom `trip` standing for `tripValue`.
Value* emitPoly(Builder& b, const Poly& p, const Value* trip, Value* tripValue);
/// The same with atoms replaced through `atoms` where it maps them (values of a later iteration).
Value* emitPoly(Builder& b, const Poly& p, const std::map<const Value*, Value*>& atoms);

/// A box start not provably >= 0 (`start`, at the loop's first iteration): a check the launcher
/// makes over the grid where the start is computed from program ids, parameters and constants,
/// else one per program (a trap) before the copies; `verb`: "read" or "wrote".
void checkStart(Kernel& k, Builder& b, const Poly& start, const Loc& loc, const std::string& verb, const Value* trip);

/// The launcher's expression for a polynomial over parameters.
HostExpr hostExpr(const Kernel& k, const Poly& p);

}  // namespace tilecc::ir
