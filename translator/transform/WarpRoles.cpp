#include "transform/WarpRoles.h"

#include <algorithm>

namespace tilecc::ir {

Op* warpRoles(Kernel& k) {
  for (auto& op : k.body->ops)
    if (op->kind == OpKind::WarpGroup && op->regions.size() == 2) return op.get();
  return nullptr;
}

Op* consumerDotLoop(Kernel& k) {
  Op* roles = warpRoles(k);
  if (!roles) return nullptr;
  Op* found = nullptr;
  walk(*roles->regions[0], [&](Op& o) {
    if (!found && o.kind == OpKind::For &&
        std::any_of(o.regions[0]->ops.begin(), o.regions[0]->ops.end(), [](const auto& x) { return x->kind == OpKind::Wgmma; }))
      found = &o;
  });
  return found;
}

bool takesTurns(const Kernel& k) {
  bool turns = false;
  walk(static_cast<const Block&>(*k.body), [&](const Op& o) { turns = turns || (o.kind == OpKind::Barrier && o.sync == Sync::TurnWait); });
  return turns;
}

}  // namespace tilecc::ir
