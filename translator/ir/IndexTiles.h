// Index tiles: an arange seen through ops that only place its elements (expand_dims, broadcast,
// trans, hints), so each element equals its own coordinate along one axis. A comparison of such a
// tile with a value that is the same all along that axis need not hold the index in a register per
// element: the printer compares the value less the thread's first index with each element's
// constant offset (tilecc::index_relative), and version-masks rewrites `x >= s + arange` into that
// form where no index wraps.
#pragma once

#include "ir/IR.h"

#include <functional>

namespace tilecc::ir {

/// The axis along which each element of `v` equals its coordinate (an i32 arange through
/// placing ops), or -1.
int indexAxis(const Value* v);

/// Whether `v` is the same in every element along `axis` (a scalar, a splat, a broadcast or
/// expand_dims along that axis, or an elementwise op of such values, up to 8 ops deep).
bool uniformAlong(const Value* v, int axis, int depth = 0);

/// Which operand of a comparison of i32 tiles is an index tile compared with a value uniform
/// along its axis, or -1 when the comparison is not of that form. Where both are, the one along
/// whose axis a thread holds more registers (`regsAlong`, the result's layout; else operand 1).
int indexCompareOperand(const Op& o, const std::function<int(int axis)>& regsAlong = {});

}  // namespace tilecc::ir
