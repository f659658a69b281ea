// Overlap of a chain of two dots across iterations (sm_90a, warp-specialised consumers; FA3's
// intra-warpgroup overlap). In attention's loop the second dot (P·V) needs the softmax of the
// first (Q·Kᵀ), which needs the first's result: as written, the tensor cores idle during the
// softmax. The loop is software-pipelined in two stages: stage 1 is the second wgmma, its wait
// and what depends on them (the accumulator's chain, the slot's release); stage 0 is the rest.
// Iteration j of the new loop issues stage 0's wgmma for j + 1 and stage 1's for j back to back,
// then waits for the first only (wait_group 1) and runs j + 1's softmax while P·V runs:
//
//   if (lb < ub) { stage 0 of iteration lb }                  → carried state, cross values
//   for (iv = lb + step; ...; stage-0 state, stage-1 state, cross values of iteration iv − step) {
//     stage 0 up to its wgmma;  stage 1 up to its wgmma
//     wgmma (stage 0, iv);  wgmma (stage 1, iv − step)
//     wgmma_wait 1 → stage 0's result; the rest of stage 0 (the softmax)
//     wgmma_wait 0 → stage 1's result; the rest of stage 1 (slot release)
//   }
//   if (lb < ub) { stage 1 of the last iteration }
//
// Values stage 1 takes from stage 0 of the same iteration (P, the rescale factors, the slot
// index) are carried one iteration; views of them (broadcasts, slots, scalars) are recomputed
// in stage 1 instead. Trip counts 0 and 1 run neither or only the prologue and epilogue.
//
// Applies to each consumers' loop of a non-persistent warp-specialised kernel whose body (no
// nested regions, no barriers) has exactly two wgmma, each waited for completely in the
// iteration, where the second is in stage 1 and the first is not.
#include "analysis/Registers.h"
#include "ir/Clone.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"
#include "transform/WarpRoles.h"

#include <algorithm>
#include <functional>
#include <set>

namespace tilecc::ir {

namespace {

BinOp comparison(CmpPred c) {
  switch (c) {
    case CmpPred::Lt: return BinOp::Lt;
    case CmpPred::Le: return BinOp::Le;
    case CmpPred::Gt: return BinOp::Gt;
    case CmpPred::Ge: return BinOp::Ge;
    case CmpPred::Ne: return BinOp::Ne;
  }
  return BinOp::Lt;
}

class Overlap {
 public:
  Overlap(Kernel& k, Op& loop) : k_(k), loop_(loop), body_(*loop.regions[0]) {}

  bool run() {
    if (!split()) return false;
    rewrite();
    return true;
  }

 private:
  Kernel& k_;
  Op& loop_;
  Block& body_;
  Op* w1_ = nullptr;  // stage 0's wgmma
  Op* x1_ = nullptr;  // its wait
  Op* w2_ = nullptr;  // stage 1's wgmma
  std::set<const Op*> late_;          // stage 1's ops
  std::set<const Value*> lateVals_;   // their results, and the body args stage 1 carries
  std::vector<const Value*> carried_; // stage-0 values stage 1 reads, carried one iteration
  std::set<const Value*> recomputed_; // stage-0 values stage 1 recomputes

  bool isLate(const Value* v) const { return lateVals_.count(v) != 0; }
  bool inBody(const Value* v) const { return (v->def && v->def->parent == &body_) || v->owner == &body_; }

  bool split() {
    std::vector<Op*> wgmmas;
    for (auto& op : body_.ops) {
      if (!op->regions.empty() || op->kind == OpKind::Barrier || op->kind == OpKind::Return) return false;
      if (op->kind == OpKind::Wgmma) wgmmas.push_back(op.get());
    }
    if (wgmmas.size() != 2) return false;
    // Stage 0 of iteration j + 1 waits for its slot while stage 1 of j still reads j's, so a
    // slot is released an iteration later than before: with two slots the producer could not
    // copy ahead at all (measured: 17-28% slower on the attention sample), with three it is one
    // iteration ahead as before.
    if (body_.ops.empty() || body_.ops[0]->kind != OpKind::MBarrierWait || body_.ops[0]->operands[0]->type.stages < 3) return false;
    w1_ = wgmmas[0];
    w2_ = wgmmas[1];
    Op* x2 = nullptr;
    for (auto& op : body_.ops) {
      if (op->kind != OpKind::WgmmaWait) continue;
      if (op->count != 0 || op->operands.size() != 1) return false;
      if (op->operands[0] == w1_->result()) x1_ = op.get();
      else if (op->operands[0] == w2_->result()) x2 = op.get();
      else return false;
    }
    if (!x1_ || !x2) return false;
    auto add = [&](const Op* o) {
      if (!late_.insert(o).second) return false;
      for (const Value* r : o->results) lateVals_.insert(r);
      return true;
    };
    add(w2_);
    add(x2);
    for (auto& op : body_.ops)
      if (op->kind == OpKind::MBarrierArrive) add(op.get());  // releases a slot: after the last read
    const Op* yield = yieldOf(body_);
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 1; i < body_.args.size(); ++i)
        if (isLate(yield->operands[i - 1]) && lateVals_.insert(body_.args[i]).second) changed = true;
      for (auto& op : body_.ops)
        if (op.get() != yield && !late_.count(op.get()) &&
            std::any_of(op->operands.begin(), op->operands.end(), [&](const Value* v) { return isLate(v); }))
          changed = add(op.get()) || changed;
    }
    if (late_.count(w1_) || late_.count(x1_)) return false;
    // Stage 0 of j + 1 now runs before stage 1 of j: stage 1 may only compute, wait and release
    // a slot, and nothing may write shared memory that a wgmma reads (it would overtake the read).
    for (const auto& op : body_.ops) {
      const OpKind k = op->kind;
      if (k == OpKind::SharedStore || k == OpKind::AsyncCopy) return false;
      if (late_.count(op.get()) && !traits(k).pure && k != OpKind::Wgmma && k != OpKind::WgmmaWait && k != OpKind::MBarrierArrive)
        return false;
    }
    // A stage-1 carried value must come from stage 1 (or from outside the loop).
    for (std::size_t i = 1; i < body_.args.size(); ++i) {
      const Value* y = yield->operands[i - 1];
      if (isLate(body_.args[i]) && !isLate(y) && inBody(y)) return false;
    }
    // Stage-0 values stage 1 reads: recomputed where cheap (scalars, views, broadcasts), else
    // carried (tiles of numbers only: the prologue's else branch needs a placeholder).
    std::set<const Value*> seen;
    bool ok = true;
    std::function<void(const Value*)> cross = [&](const Value* v) {
      if (!inBody(v) || isLate(v) || !seen.insert(v).second) return;
      const Op* d = v->def;
      // Scalar arithmetic on scalars (a slot view, an index) and views of tiles.
      const bool scalar = !v->type.isTile() && d && std::none_of(d->operands.begin(), d->operands.end(),
                                                                [](const Value* x) { return x->type.isTile(); });
      const bool view = d && (d->kind == OpKind::Splat || d->kind == OpKind::Broadcast || d->kind == OpKind::ExpandDims);
      if (d && d->regions.empty() && traits(d->kind).pure && (scalar || view)) {
        recomputed_.insert(v);
        for (const Value* x : d->operands) cross(x);
        return;
      }
      if (!v->type.isValue() || v->type.elem.isPtr()) ok = false;
      carried_.push_back(v);
    };
    for (const auto& op : body_.ops)
      if (late_.count(op.get()))
        for (const Value* v : op->operands) cross(v);
    return ok;
  }

  // Clones the recomputed stage-0 values stage 1 needs into `b`, from the values in `map`.
  void recompute(Builder& b, const Value* v, ValueMap& map) {
    if (map.count(v) || !recomputed_.count(v)) return;
    if (!v->def) return;  // a body arg: mapped by the caller
    for (const Value* x : v->def->operands) recompute(b, x, map);
    cloneOp(b, *v->def, map);
  }
  void cloneLate(Builder& b, const Op& op, ValueMap& map) {
    for (const Value* x : op.operands) recompute(b, x, map);
    cloneOp(b, op, map);
  }

  Value* placeholder(Builder& b, const Value* like) {
    Value* zero = like->type.elem.isFloat() ? b.floatConst(0.0, like->type.elem) : b.intConst(0, like->type.elem);
    if (!like->type.isTile()) return zero;
    Value* t = b.one(OpKind::Splat, {zero}, like->type);
    t->layout = like->layout;
    return t;
  }

  void rewrite() {
    Block& outer = *loop_.parent;
    const Op* yield = yieldOf(body_);
    Value* iv = body_.args[0];
    const std::size_t nArgs = body_.args.size() - 1;
    std::vector<std::size_t> early, lateIdx;  // carried values by stage (indices into args − 1)
    for (std::size_t i = 0; i < nArgs; ++i) (isLate(body_.args[i + 1]) ? lateIdx : early).push_back(i);
    // Body args stage 1 reads that stage 0 carries (the slot index, the induction variable)
    // are cross values too: stage 1 needs the ones of its own iteration.
    Value* lb = loop_.operands[0];
    Value* ub = loop_.operands[1];
    Value* step = loop_.operands[2];
    auto init = [&](std::size_t i) { return loop_.operands[3 + i]; };

    Builder b{k_, &outer, loop_.loc, iv->name, -1};
    b.setInsertionBefore(loop_);
    Value* any = b.binary(comparison(loop_.cmp), lb, ub, ElemType::of(Scalar::Bool));

    // ---- prologue: stage 0 of the first iteration ----
    std::vector<Type> proTypes;
    for (std::size_t i : early) proTypes.push_back(body_.args[i + 1]->type);
    for (const Value* v : carried_) proTypes.push_back(v->type);
    Op* pro = b.create(OpKind::If, {any}, proTypes);
    {
      Builder t{k_, b.addRegion(pro), loop_.loc, iv->name, -1};
      ValueMap m{{iv, lb}};
      for (std::size_t i = 0; i < nArgs; ++i) m[body_.args[i + 1]] = init(i);
      for (const auto& op : body_.ops)
        if (op.get() != yield && !late_.count(op.get())) cloneOp(t, *op, m);
      std::vector<Value*> ys;
      for (std::size_t i : early) ys.push_back(m.count(yield->operands[i]) ? m[yield->operands[i]] : yield->operands[i]);
      for (const Value* v : carried_) ys.push_back(m.at(v));
      t.create(OpKind::Yield, ys, {});
      Builder e{k_, b.addRegion(pro), loop_.loc, iv->name, -1};
      std::vector<Value*> es;
      for (std::size_t i : early) es.push_back(init(i));
      for (const Value* v : carried_) es.push_back(placeholder(e, v));
      e.create(OpKind::Yield, es, {});
    }
    for (std::size_t j = 0; j < pro->results.size(); ++j) {
      const Value* like = j < early.size() ? body_.args[early[j] + 1] : carried_[j - early.size()];
      pro->results[j]->layout = like->layout;
      pro->results[j]->name = like->name.empty() ? "" : like->name + "_first";
    }

    // ---- the loop: stage 0 of iv, stage 1 of iv − step ----
    Value* next = b.binary(BinOp::Add, lb, step, lb->type.elem);
    std::vector<Value*> ops{next, ub, step};
    std::vector<Type> types;
    for (std::size_t j = 0; j < early.size(); ++j) ops.push_back(pro->results[j]), types.push_back(body_.args[early[j] + 1]->type);
    for (std::size_t i : lateIdx) ops.push_back(init(i)), types.push_back(body_.args[i + 1]->type);
    for (std::size_t j = 0; j < carried_.size(); ++j) ops.push_back(pro->results[early.size() + j]), types.push_back(carried_[j]->type);
    Op* nl = b.create(OpKind::For, ops, types);
    nl->cmp = loop_.cmp;
    Block* nb = b.addRegion(nl);
    Builder lb2{k_, nb, loop_.loc, iv->name, -1};
    ValueMap m0, m1;
    auto arg = [&](const Value* like, std::string name) {
      Value* a = lb2.addArg(nb, like->type, std::move(name));
      a->layout = like->layout;
      return a;
    };
    m0[iv] = arg(iv, iv->name);
    for (std::size_t i : early) m0[body_.args[i + 1]] = arg(body_.args[i + 1], body_.args[i + 1]->name);
    for (std::size_t i : lateIdx) m1[body_.args[i + 1]] = arg(body_.args[i + 1], body_.args[i + 1]->name);
    for (const Value* v : carried_) m1[v] = arg(v, (v->name.empty() ? computes(v) : v->name) + "_prev");
    // Stage 0 up to its wgmma, stage 1 up to its wgmma, both wgmma, then the rest of each.
    auto at = [&](const Op* o) { return Builder::indexOf(body_, o); };
    for (const auto& op : body_.ops)
      if (!late_.count(op.get()) && at(op.get()) < at(w1_)) cloneOp(lb2, *op, m0);
    for (const auto& op : body_.ops)
      if (late_.count(op.get()) && at(op.get()) < at(w2_)) cloneLate(lb2, *op, m1);
    cloneOp(lb2, *w1_, m0);
    cloneLate(lb2, *w2_, m1);
    for (const auto& op : body_.ops)
      if (op.get() != yield && !late_.count(op.get()) && at(op.get()) > at(w1_)) {
        Op* c = cloneOp(lb2, *op, m0);
        if (op.get() == x1_) c->count = 1;  // stage 1's wgmma stays in flight
      }
    for (const auto& op : body_.ops)
      if (op.get() != yield && late_.count(op.get()) && at(op.get()) > at(w2_)) cloneLate(lb2, *op, m1);
    auto mapped = [](ValueMap& m, Value* v) { return m.count(v) ? m[v] : v; };
    std::vector<Value*> ys;
    for (std::size_t i : early) ys.push_back(mapped(m0, yield->operands[i]));
    for (std::size_t i : lateIdx) ys.push_back(mapped(m1, yield->operands[i]));
    for (const Value* v : carried_) ys.push_back(m0.at(v));
    lb2.create(OpKind::Yield, ys, {});
    for (std::size_t j = 0; j < nl->results.size(); ++j) {
      nl->results[j]->layout = nb->args[j + 1]->layout;
      nl->results[j]->name = nb->args[j + 1]->name + "_last";
    }

    // ---- epilogue: stage 1 of the last iteration ----
    b.setInsertionAfter(*nl);
    std::vector<Type> epiTypes;
    for (std::size_t i : lateIdx) epiTypes.push_back(body_.args[i + 1]->type);
    Op* epi = b.create(OpKind::If, {any}, epiTypes);
    {
      Builder t{k_, b.addRegion(epi), loop_.loc, iv->name, -1};
      ValueMap m;
      for (std::size_t j = 0; j < lateIdx.size(); ++j) m[body_.args[lateIdx[j] + 1]] = nl->results[early.size() + j];
      for (std::size_t j = 0; j < carried_.size(); ++j) m[carried_[j]] = nl->results[early.size() + lateIdx.size() + j];
      for (const auto& op : body_.ops)
        if (op.get() != yield && late_.count(op.get())) cloneLate(t, *op, m);
      std::vector<Value*> ts;
      for (std::size_t i : lateIdx) ts.push_back(mapped(m, yield->operands[i]));
      t.create(OpKind::Yield, ts, {});
      Builder e{k_, b.addRegion(epi), loop_.loc, iv->name, -1};
      std::vector<Value*> es;
      for (std::size_t j = 0; j < lateIdx.size(); ++j) es.push_back(nl->results[early.size() + j]);
      e.create(OpKind::Yield, es, {});
    }
    // The old loop's results: stage 0's from the new loop, stage 1's from the epilogue.
    for (std::size_t j = 0; j < early.size(); ++j) {
      nl->results[j]->name = loop_.results[early[j]]->name;
      replaceAllUses(outer, loop_.results[early[j]], nl->results[j]);
    }
    for (std::size_t j = 0; j < lateIdx.size(); ++j) {
      epi->results[j]->layout = loop_.results[lateIdx[j]]->layout;
      epi->results[j]->name = loop_.results[lateIdx[j]]->name;
      replaceAllUses(outer, loop_.results[lateIdx[j]], epi->results[j]);
    }
    erase(loop_);
  }
};

}  // namespace

bool overlapDots(Kernel& k, const Target& t) {
  if (!t.wgmma || k.producerWarps == 0 || k.persistent) return false;
  // Every loop of the form (causal attention's two key loops share one ring: each is
  // pipelined on its own, its last P·V after it).
  std::vector<Op*> loops = consumerDotLoops(k);
  if (loops.empty()) return false;
  // Overlapped, a consumer thread holds the next block's scores beside this block's P. Tried
  // on a copy first: where the tiles would leave fewer than kHeadroom of the consumers'
  // registers for addresses, indices and masks, ptxas serialises the wgmma (C7512, an error
  // in the build) and spills. Measured on the H100: attention at D = 64 with 256-key blocks
  // overlapped, 228 registers for tiles against 232, ran at 0.6x the loop as written (237
  // against 378 TFLOP/s, causal); at D = 128 with 128-key blocks, 164 against 232, overlapping
  // gains 15-22% (README, ninth run).
  constexpr int kHeadroom = 32;
  auto trial = clone(k);
  const std::vector<Op*> tls = consumerDotLoops(*trial);
  std::vector<bool> fits;
  for (Op* tl : tls) fits.push_back(Overlap(*trial, *tl).run());
  if (std::none_of(fits.begin(), fits.end(), [](bool f) { return f; })) return false;
  int budget = kRegistersPerThread;
  walk(*k.body, [&](const Op& o) {
    if (o.kind == OpKind::SetMaxNReg && o.increase) budget = std::min(budget, o.regs);
  });
  const RegisterEstimate e = estimateRegisters(*trial);
  if (e.registers > budget - kHeadroom) {
    k.notOverlapped = "overlapped, they would need " + describe(e) + ", leaving fewer than " + std::to_string(kHeadroom) + " of the " +
                      std::to_string(budget) + " a consumer thread has for the rest (ptxas would serialise the wgmma)";
    return false;
  }
  for (std::size_t i = 0; i < loops.size(); ++i)
    if (fits[i]) Overlap(k, *loops[i]).run();
  return true;
}

}  // namespace tilecc::ir
