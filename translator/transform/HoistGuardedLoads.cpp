// Dot operands loaded under an `if` in a loop (block-sparse GEMM and attention that skip
// blocks: `if (block_mask[kb]) acc = dot(load(a..), load(b..), acc)`) move out of the `if`, to
// the loop body's top level, with the `if`'s condition joined to their mask. Where the
// condition is false no lane reads memory and the buffer the load fills is read by nothing (its
// dots are in the `if`), so the move changes no value the program computes; pipeline-loops then
// copies the loads ahead like any other dot operand, with the condition recomputed for the later
// iteration (a scalar it loads is read ahead only where nothing in the loop writes memory).
// Where the condition is false the copies are not issued (guardOfCopy, for the pipeliner).
//
// A load moves with the buffer it fills, the store that fills it, and the pure ops in the `if`
// that its address and mask need; only where the pipeliner takes the result (a loop counting up
// with `<`, runs of at least 4 bytes along the buffer's rows, and an address, mask and condition
// that a later iteration can compute), so that nothing moves for nothing.
#include "ir/Builder.h"
#include "ir/Layout.h"
#include "ir/OpTraits.h"
#include "transform/GuardedLoads.h"
#include "transform/LoopChains.h"
#include "transform/Passes.h"

#include <algorithm>
#include <functional>

namespace tilecc::ir {

namespace {

class Hoister {
 public:
  Hoister(Kernel& k, Op& loop) : k_(k), body_(*loop.regions[0]), iv_(body_.args[0]), loadsAhead_(!writesMemory(body_)) {}

  void run() {
    std::vector<Op*> ifs;
    for (auto& o : body_.ops)
      if (o->kind == OpKind::If && !o->regions.empty()) ifs.push_back(o.get());
    for (Op* guard : ifs) {
      std::set<const Op*> chain;
      std::set<const Value*> inductions;
      if (!chainOf(body_, guard->operands[0], iv_, chain, &inductions, loadsAhead_)) continue;
      users_ = collectUsers(*k_.body);
      std::vector<Op*> loads;
      for (auto& o : guard->regions[0]->ops)
        if (o->kind == OpKind::Load) loads.push_back(o.get());
      for (Op* ld : loads) hoist(*guard, *ld);
    }
  }

 private:
  Kernel& k_;
  Block& body_;
  const Value* iv_;
  bool loadsAhead_;
  std::map<const Value*, std::vector<Op*>> users_;

  const std::vector<Op*>& usersOf(const Value* v) {
    static const std::vector<Op*> none;
    const auto it = users_.find(v);
    return it == users_.end() ? none : it->second;
  }

  void hoist(Op& guard, Op& ld) {
    Block& then = *guard.regions[0];
    Value* r = ld.result();
    Value* ptrs = ld.operands[0];
    if (!r || !ptrs->type.isTile() || r->type.rank() != 2 || ptrs->layout < 0) return;
    if (ld.operands.size() >= 3 && !isZeroConstant(ld.operands[2])) return;  // the pipeliner zero-fills
    // Its value only fills a buffer of the `if` that mma or wgmma reads as an operand.
    const auto& us = usersOf(r);
    if (us.size() != 1 || us[0]->kind != OpKind::SharedStore || us[0]->parent != &then || us[0]->operands[0] != r) return;
    Op& st = *us[0];
    Value* buf = st.operands[1];
    if (!buf->def || buf->def->kind != OpKind::LocalAlloc || buf->def->parent != &then) return;
    if (!readAsDotOperandOnly(buf, &st, usersOf(buf))) return;
    // Runs cp.async can copy: at least 4 bytes along the buffer's rows.
    const int axis = st.transposed ? 0 : 1;
    const int spt = axisGeom(k_.layoutOf(ptrs), axis, ptrs->type.shape[static_cast<std::size_t>(axis)]).spt;
    if (ld.access.axis != axis || std::min(ld.access.vec, spt & -spt) * r->type.elem.bytes() < 4) return;
    // The pure ops of the `if` its address and mask need, and what they need from outside it
    // computable by a later iteration.
    std::set<const Op*> inside;
    bool ok = true;
    std::function<void(const Value*)> visit = [&](const Value* v) {
      if (!ok || v == iv_) return;
      const Op* d = v->def;
      if (d && d->parent == &then) {
        if (!recomputable(*d)) ok = false;
        else if (inside.insert(d).second)
          for (const Value* x : d->operands) visit(x);
        return;
      }
      if ((d && within(d->parent, then)) || (!d && v->owner && within(v->owner, then))) {
        ok = false;
        return;
      }
      std::set<const Op*> chain;
      std::set<const Value*> inductions;
      if (within(d ? d->parent : v->owner, body_) && !chainOf(body_, v, iv_, chain, &inductions, loadsAhead_)) ok = false;
    };
    for (std::size_t i = 0; i < std::min<std::size_t>(ld.operands.size(), 2); ++i) visit(ld.operands[i]);
    if (!ok) return;
    inside.insert(&ld);
    inside.insert(buf->def);
    inside.insert(&st);
    std::vector<Op*> moving;  // in the `if`'s order
    for (auto& o : then.ops)
      if (inside.count(o.get())) moving.push_back(o.get());
    for (Op* o : moving) moveBefore(*o, guard);
    // mask ∧ condition, and zeros where it is false.
    Builder b{k_, &body_, ld.loc, r->name.empty() ? r->hint : r->name, -1};
    b.setInsertionBefore(ld);
    const ElemType i1 = ElemType::of(Scalar::Bool);
    Value* mask = ld.operands.size() >= 2 ? ld.operands[1] : nullptr;
    Value* cond = b.one(OpKind::Splat, {guard.operands[0]}, ptrs->type.withElem(i1));
    cond->layout = mask ? mask->layout : ptrs->layout;
    if (mask) {
      cond = b.binary(BinOp::And, mask, cond, i1);
      cond->layout = mask->layout;
    }
    if (ld.operands.size() < 3) {
      const ElemType e = r->type.elem;
      Value* zero = e.isFloat() ? b.floatConst(0.0, e) : b.intConst(0, e);
      Value* other = b.one(OpKind::Splat, {zero}, r->type);
      other->layout = r->layout;
      ld.operands.resize(3);
      ld.operands[2] = other;
    }
    ld.operands[1] = cond;
  }
};

}  // namespace

const Value* guardOfCopy(const Op& load, const Op* store, const std::vector<Op*>& bufferUsers, const Block& body) {
  if (load.operands.size() < 2) return nullptr;
  const Value* m = load.operands[1];
  const Value* c = splatScalar(m);
  if (!c && m->def && m->def->kind == OpKind::Binary && m->def->binop == BinOp::And)
    c = splatScalar(m->def->operands[0]) ? splatScalar(m->def->operands[0]) : splatScalar(m->def->operands[1]);
  if (!c) return nullptr;
  for (const Op* u : bufferUsers) {
    bool guarded = u == store;
    for (const Block* b = u->parent; !guarded && b && b != &body; b = b->parent ? b->parent->parent : nullptr)
      guarded = b->parent && b->parent->kind == OpKind::If && b->parent->operands[0] == c && b == b->parent->regions[0].get();
    if (!guarded) return nullptr;
  }
  return c;
}

void hoistGuardedLoads(Kernel& k, const Target& t) {
  if (!t.asyncCopy || k.numStages < 2) return;
  std::vector<Op*> loops;
  walk(*k.body, [&](Op& o) {
    if (o.kind == OpKind::For && o.cmp == CmpPred::Lt && yieldOf(*o.regions[0])) loops.push_back(&o);
  });
  for (Op* l : loops) Hoister(k, *l).run();
}

}  // namespace tilecc::ir
