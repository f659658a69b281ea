#include "transform/LoopChains.h"

#include "ir/OpTraits.h"

#include <algorithm>
#include <functional>

namespace tilecc::ir {

bool recomputable(const Op& o, bool scalarLoads) {
  if (scalarLoads && o.kind == OpKind::Load && o.result() && !o.result()->type.isTile()) return true;
  const OpTraits& t = traits(o.kind);
  return t.pure && o.regions.empty() && (t.family == Family::Scalar || t.family == Family::Shape || t.family == Family::Elementwise);
}

bool chainOf(const Block& body, const Value* v, const Value* iv, std::set<const Op*>& chain, std::set<const Value*>* inductions,
             bool scalarLoads) {
  std::set<const Op*> seen;
  std::set<const Value*> found;
  bool ok = true;
  std::function<void(const Value*)> visit = [&](const Value* x) {
    if (!ok || x == iv) return;
    const Op* d = x->def;
    if (!d) {  // a block argument: of this loop's body (carried) or of an enclosing block
      if (x->owner == &body && inductions && iv && !x->type.isTile()) {
        const Value* step = inductionStep(body, x);
        if (!step) {
          ok = false;
          return;
        }
        found.insert(x);
        visit(step);
        return;
      }
      if (x->owner == &body || (x->owner && within(x->owner, body))) ok = false;
      return;
    }
    if (d->parent != &body) {  // defined before the loop, or nested inside the body
      if (within(d->parent, body)) ok = false;
      return;
    }
    if (!recomputable(*d, scalarLoads)) {
      ok = false;
      return;
    }
    if (!seen.insert(d).second) return;
    for (const Value* y : d->operands) visit(y);
  };
  visit(v);
  if (ok) {
    chain.insert(seen.begin(), seen.end());
    if (inductions) inductions->insert(found.begin(), found.end());
  }
  return ok;
}

const Value* inductionStep(const Block& body, const Value* arg) {
  const Value* step = carriedStep(body, arg);
  if (!step || step->type.isTile()) return nullptr;
  // The advance itself at the body's top level.
  const auto j = static_cast<std::size_t>(std::find(body.args.begin(), body.args.end(), arg) - body.args.begin());
  if (yieldOf(body)->operands[j - 1]->def->parent != &body) return nullptr;
  std::set<const Op*> unused;
  return chainOf(body, step, nullptr, unused) ? step : nullptr;
}

bool readAsDotOperandOnly(const Value* buf, const Op* store, const std::vector<Op*>& users) {
  return std::all_of(users.begin(), users.end(), [&](const Op* u) {
    return u == store || ((u->kind == OpKind::Mma || u->kind == OpKind::Wgmma) && u->operands[2] != buf);
  });
}

bool writesMemory(const Block& body) {
  bool writes = false;
  walk(body, [&](const Op& o) {
    if (traits(o.kind).family == Family::Memory && o.kind != OpKind::Load) writes = true;
  });
  return writes;
}

}  // namespace tilecc::ir
