#include "transform/TmaPipes.h"

#include "ir/Clone.h"
#include "ir/OpTraits.h"

#include <algorithm>
#include <functional>
#include <set>

namespace tilecc::ir {

namespace {

bool containsKind(const Op& o, OpKind kind) {
  bool found = o.kind == kind;
  for (const auto& r : o.regions)
    walk(static_cast<const Block&>(*r), [&](const Op& x) { found = found || x.kind == kind; });
  return found;
}

bool miss(TmaPipes& out, const char* why) {
  out.why = why;
  return false;
}

bool analyse(TmaPipe& p, TmaPipes& out) {
  Block& body = *p.loop->regions[0];
  // A pipelined TMA loop starts with its wait: a loop without one holds the TMA loop inside it.
  if (body.ops.empty() || body.ops[0]->kind != OpKind::MBarrierWait)
    return miss(out, "its TMA loop is nested more than one loop deep");
  p.wait = body.ops[0].get();
  for (auto& op : body.ops) {
    if (!containsKind(*op, OpKind::TmaLoad)) continue;
    if (op->kind != OpKind::If || p.copies) return miss(out, "its TMA copies are not issued in one place of the loop");
    p.copies = op.get();
  }
  if (!p.copies) return miss(out, "no loop copies with TMA");
  walk(static_cast<const Block&>(*p.copies->regions[0]), [&](const Op& o) {
    if (o.kind != OpKind::TmaLoad) return;
    p.slot = o.operands[3];
    Value* ring = const_cast<Value*>(sharedRoot(o.operands[1]));
    if (std::find(p.rings.begin(), p.rings.end(), ring) == p.rings.end()) p.rings.push_back(ring);
  });
  // The iteration the copies are for: the guard compares it with the loop's bound.
  const Op* in = p.copies->operands[0]->def;
  if (!p.slot || !in || in->kind != OpKind::Binary || in->binop != BinOp::Lt || in->operands[1] != p.loop->operands[1])
    return miss(out, "its TMA copies are not the pipelined loop's own (slot and guard)");
  p.ahead = in->operands[0];
  if (p.ahead->def && p.ahead->def->kind == OpKind::Convert) p.ahead = p.ahead->def->operands[0];
  // The copies read, from the body, only that iteration, the slot and pure scalar ops of its
  // top level.
  std::set<const Op*> seen;
  bool ok = true;
  std::function<void(const Value*)> need = [&](const Value* v) {
    if (v == p.ahead) return;
    const Op* d = v->def;
    if (!d) {
      if (v->owner == &body && v != p.slot) ok = false;
      return;
    }
    if (d->parent != &body) return;
    if (v->type.isTile() || !traits(d->kind).pure || !d->regions.empty()) {
      ok = false;
      return;
    }
    if (!seen.insert(d).second) return;
    for (const Value* x : d->operands) need(x);
  };
  walk(static_cast<const Block&>(*p.copies->regions[0]), [&](const Op& o) {
    for (const Value* v : o.operands) need(v);
  });
  for (const auto& op : body.ops)
    if (seen.count(op.get())) p.chain.push_back(op.get());
  if (!ok) return miss(out, "its TMA copies' coordinates depend on more than the loop's iteration");
  return true;
}

}  // namespace

bool findTmaPipes(Kernel& k, TmaPipes& out) {
  Block* scope = k.body.get();
  bool returns = false;
  walk(*scope, [&](const Op& o) { returns = returns || o.kind == OpKind::Return; });
  if (returns) return miss(out, "the kernel has a return (a consumer leaving early would leave the producer waiting)");
  // One top-level loop that holds every copy but does not wait on a ring itself: the TMA loops
  // are in its body (a persistent loop written out).
  std::vector<Op*> holders;
  for (auto& op : scope->ops)
    if (containsKind(*op, OpKind::TmaLoad)) holders.push_back(op.get());
  if (holders.size() == 1 && holders[0]->kind == OpKind::For) {
    const Block& body = *holders[0]->regions[0];
    if (body.ops.empty() || body.ops[0]->kind != OpKind::MBarrierWait) {
      out.outer = holders[0];
      scope = holders[0]->regions[0].get();
    }
  }
  std::vector<Op*> prologue;
  for (auto& op : scope->ops) {
    // A loop-invariant operand's copy (pipelineLoops): issued before its loop.
    if (out.pipes.empty() && prologue.empty() && (op->kind == OpKind::TmaLoad || op->kind == OpKind::MBarrierExpectTx)) {
      out.invariant.push_back(op.get());
      continue;
    }
    if (!containsKind(*op, OpKind::TmaLoad)) continue;
    if (op->kind == OpKind::If) {
      prologue.push_back(op.get());
      continue;
    }
    if (op->kind != OpKind::For) return miss(out, "its TMA copies are not all in loops at the kernel's top level");
    TmaPipe p;
    p.loop = op.get();
    p.prologue = std::move(prologue);
    prologue.clear();
    if (!analyse(p, out)) return false;
    out.pipes.push_back(std::move(p));
  }
  if (out.pipes.empty()) return miss(out, "no loop copies with TMA");
  if (!prologue.empty()) return miss(out, "its TMA copies are not all in loops at the kernel's top level");
  return true;
}

bool sameRings(const std::vector<TmaPipe>& pipes) {
  const TmaPipe& first = pipes[0];
  for (const TmaPipe& p : pipes) {
    bool same = p.rings.size() == first.rings.size() && p.full()->type == first.full()->type;
    for (std::size_t j = 0; same && j < p.rings.size(); ++j) same = p.rings[j]->type == first.rings[j]->type;
    if (!same) return false;
  }
  return true;
}

void cloneCopies(Builder& b, const TmaPipe& p, Value* iteration, Value* slot, const ValueMap& base) {
  ValueMap map = base;
  map[p.ahead] = iteration;
  map[p.slot] = slot;
  for (const Op* o : p.chain) cloneOp(b, *o, map);
  for (const auto& o : p.copies->regions[0]->ops)
    if (o->kind != OpKind::Yield) cloneOp(b, *o, map);
}

Value* previousSlot(Builder& b, Value* slot, int stages) {
  Value* first = b.binary(BinOp::Eq, slot, b.intConst(0), ElemType::of(Scalar::Bool));
  Value* before = b.binary(BinOp::Sub, slot, b.intConst(1), slot->type.elem);
  return b.create(OpKind::Select, {first, b.intConst(stages - 1), before}, {slot->type})->result();
}

void shareFirstRing(Kernel& k, std::vector<TmaPipe>& pipes, bool write) {
  Block& top = *k.body;
  const TmaPipe& first = pipes[0];
  for (std::size_t i = 1; i < pipes.size(); ++i) {
    TmaPipe& p = pipes[i];
    const TmaPipe& prev = pipes[i - 1];
    std::vector<std::pair<Value*, Value*>> repl{{p.full(), first.full()}};
    for (std::size_t j = 0; j < p.rings.size(); ++j) repl.push_back({p.rings[j], first.rings[j]});
    for (auto [from, to] : repl) {
      for (auto& op : top.ops)
        if (op->kind == OpKind::MBarrierInit && op->operands[0] == from) {
          erase(*op);
          break;
        }
      replaceAllUses(top, from, to);
      erase(*from->def);
    }
    p.rings = first.rings;
    std::vector<std::pair<const Value*, const Value*>> carried{{p.wait->operands[1], prev.wait->operands[1]},
                                                               {p.wait->operands[2], prev.wait->operands[2]}};
    if (write) carried.push_back({p.slot, prev.slot});
    for (auto [arg, from] : carried) p.loop->operands[carriedIndex(*p.loop, arg) + 3] = prev.loop->results[carriedIndex(*prev.loop, from)];
  }
}

}  // namespace tilecc::ir
