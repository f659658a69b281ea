#include "ir/IndexTiles.h"

#include "ir/OpTraits.h"

#include <algorithm>
#include <functional>

namespace tilecc::ir {

int indexAxis(const Value* v) {
  const Op* d = v->def;
  if (!d || !v->type.isTile()) return -1;
  switch (d->kind) {
    case OpKind::Arange: return v->type.elem.kind == Scalar::I32 && v->type.rank() == 1 ? 0 : -1;
    case OpKind::Hint:
    case OpKind::Broadcast: return indexAxis(d->operands[0]);  // broadcasts only size-1 axes
    case OpKind::ExpandDims: {
      const int a = indexAxis(d->operands[0]);
      return a < 0 ? -1 : a >= d->axis ? a + 1 : a;
    }
    case OpKind::Trans: {
      const int a = indexAxis(d->operands[0]);
      return a < 0 || v->type.rank() != 2 ? -1 : 1 - a;
    }
    default: return -1;
  }
}

bool uniformAlong(const Value* v, int axis, int depth) {
  if (v->type.isScalar()) return true;
  if (axis < 0 || axis >= v->type.rank()) return false;
  if (v->type.shape[static_cast<std::size_t>(axis)] == 1) return true;
  const Op* d = v->def;
  if (!d) return false;
  switch (d->kind) {
    case OpKind::Splat:
    case OpKind::Constant: return true;
    case OpKind::Hint:
    case OpKind::Broadcast: return uniformAlong(d->operands[0], axis, depth);
    case OpKind::ExpandDims: return uniformAlong(d->operands[0], axis > d->axis ? axis - 1 : axis, depth);
    case OpKind::Trans: return v->type.rank() == 2 && uniformAlong(d->operands[0], 1 - axis, depth);
    default:  // an elementwise op of values that are (a bounded depth: operands may be shared, and
              // a long expression would otherwise be walked once per path through it)
      return depth < 8 && traits(d->kind).elementwise && traits(d->kind).pure && d->regions.empty() &&
             std::all_of(d->operands.begin(), d->operands.end(), [&](const Value* o) { return uniformAlong(o, axis, depth + 1); });
  }
}

int indexCompareOperand(const Op& o, const std::function<int(int axis)>& regsAlong) {
  if (o.kind != OpKind::Binary || !isComparison(o.binop) || !o.result()->type.isTile()) return -1;
  if (o.operands[0]->type.elem.kind != Scalar::I32) return -1;
  int side = -1, sideAxis = -1;
  for (int i : {1, 0}) {
    const int a = indexAxis(o.operands[static_cast<std::size_t>(i)]);
    if (a < 0 || !uniformAlong(o.operands[static_cast<std::size_t>(1 - i)], a)) continue;
    // Both sides are indices: the one along which a thread holds more registers leaves the other
    // side fewer distinct values to offset.
    if (side < 0 || (regsAlong && regsAlong(a) > regsAlong(sideAxis))) side = i, sideAxis = a;
  }
  return side;
}

}  // namespace tilecc::ir
