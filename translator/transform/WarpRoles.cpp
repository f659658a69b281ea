#include "transform/WarpRoles.h"

#include "ir/Builder.h"
#include "transform/TmaPipes.h"

#include <algorithm>

namespace tilecc::ir {

Op* warpRoles(Kernel& k) {
  for (auto& op : k.body->ops)
    if (op->kind == OpKind::WarpGroup && op->regions.size() == 2) return op.get();
  return nullptr;
}

std::vector<Op*> consumerDotLoops(Kernel& k) {
  std::vector<Op*> found;
  Op* roles = warpRoles(k);
  if (!roles) return found;
  walk(*roles->regions[0], [&](Op& o) {
    if (o.kind == OpKind::For &&
        std::any_of(o.regions[0]->ops.begin(), o.regions[0]->ops.end(), [](const auto& x) { return x->kind == OpKind::Wgmma; }))
      found.push_back(&o);
  });
  return found;
}

Op* consumerDotLoop(Kernel& k) {
  const std::vector<Op*> loops = consumerDotLoops(k);
  return loops.empty() ? nullptr : loops[0];
}

void releaseLastSlot(Kernel& k, Op& loop) {
  Block& body = *loop.regions[0];
  const Op* wait = nullptr;
  for (auto& op : body.ops)
    if (!wait && op->kind == OpKind::MBarrierWait) wait = op.get();  // the ring's, at the top
  Op* arrive = nullptr;
  walk(body, [&](Op& o) {
    if (o.kind == OpKind::MBarrierArrive) arrive = &o;
  });
  if (!wait || !arrive || arrive->parent == &body) return;  // released in its own iteration
  Op* fin = nullptr;  // the wgmma wait after the loop
  for (auto& op : loop.parent->ops)
    if (op->kind == OpKind::WgmmaWait && op->count == 0 && !op->operands.empty() && op->operands[0]->def == &loop) fin = op.get();
  if (!fin) return;
  Builder b{k, loop.parent, loop.loc, "release", -1};
  b.setInsertionAfter(*fin);
  Value* ran = b.binary(BinOp::Lt, loop.operands[0], loop.operands[1], ElemType::of(Scalar::Bool));
  Op* guard = b.create(OpKind::If, {ran}, {});
  Builder then{k, b.addRegion(guard), loop.loc, "release", -1};
  Builder other{k, b.addRegion(guard), loop.loc, "release", -1};
  Value* read = loop.results[carriedIndex(loop, wait->operands[1])];  // the slot after the last one read
  then.create(OpKind::MBarrierArrive, {arrive->operands[0], previousSlot(then, read, k.numStages)}, {});
  then.create(OpKind::Yield, {}, {});
  other.create(OpKind::Yield, {}, {});
}

bool takesTurns(const Kernel& k) {
  bool turns = false;
  walk(static_cast<const Block&>(*k.body), [&](const Op& o) { turns = turns || (o.kind == OpKind::Barrier && o.sync == Sync::TurnWait); });
  return turns;
}

}  // namespace tilecc::ir
