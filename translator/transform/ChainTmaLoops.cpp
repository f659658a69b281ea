// Consecutive TMA-pipelined loops as one pipeline (sm_90a's TMA variant where it is not
// warp-specialised). Causal attention as Triton's tutorial writes it runs two loops over the
// keys (off-band, then the diagonal band); pipelined one by one, the second loop's prologue
// waits for its first boxes with nothing to hide the latency, once per program. Chained, the
// loops share the first loop's ring and barriers, their iterations numbered on from one loop to
// the next (slot, phase), and a loop's last iterations copy the next loop's first boxes:
//
//   n0 = trip count of loop 0, ...                (hoisted: the next loops' bounds and coordinates)
//   prologue slot s:  if (s < n0) boxes of loop 0, iteration s  else if (s − n0 < n1) loop 1's ...
//   loop 0 (read, write, phase):  ... if (ahead < hi0) boxes of iteration ahead
//                                     else if (t < n1) boxes of loop 1's iteration t ...
//   loop 1 (read, write, phase from loop 0's results): as before, without its prologue
//
// Applies where the TMA loops' boxes have the same shapes and whatever the later loops' bounds
// and copies read before them is scalar arithmetic outside the loops (moved up before the first).
#include "ir/OpTraits.h"
#include "transform/Passes.h"
#include "transform/TmaPipes.h"

#include <algorithm>
#include <functional>
#include <set>

namespace tilecc::ir {

namespace {

class Chain {
 public:
  Chain(Kernel& k, std::vector<TmaPipe>& pipes) : k_(k), top_(*k.body), pipes_(pipes) {}

  bool run() {
    // The first loop's prologue: one copy region per slot 0 .. num_stages − 2 (else an
    // iteration the next loop needs would never be copied, and its wait would never end).
    std::vector<const Value*> slots;
    for (Op* pro : pipes_[0].prologue) {
      const Value* slot = nullptr;
      walk(static_cast<const Block&>(*pro->regions[0]), [&](const Op& o) {
        if (o.kind == OpKind::TmaLoad) slot = o.operands[3];
      });
      if (!slot || !slot->def || slot->def->kind != OpKind::Constant || slot->def->intValue != static_cast<std::int64_t>(slots.size()) ||
          pro->regions.size() != 2)
        return false;
      slots.push_back(slot);
    }
    if (static_cast<int>(slots.size()) != k_.numStages - 1 || !hoist()) return false;
    tripCounts();
    shareFirstRing(k_, pipes_, true);
    // The first loop's prologue and every loop but the last copy on into the next loop.
    for (std::size_t s = 0; s < slots.size(); ++s) {
      Op* pro = pipes_[0].prologue[s];
      const Value* slot = slots[s];
      Builder b{k_, pro->regions[1].get(), pro->loc, "chain", -1};
      b.setInsertionBefore(*yieldOf(*pro->regions[1]));
      Value* t = b.binary(BinOp::Sub, b.intConst(slot->def->intValue, type_.elem), trips_[0], type_.elem);
      copiesFrom(b, 1, t, const_cast<Value*>(slot));
    }
    for (std::size_t i = 0; i + 1 < pipes_.size(); ++i) {
      TmaPipe& p = pipes_[i];
      Builder b{k_, p.copies->regions[1].get(), p.loop->loc, "chain", -1};
      b.setInsertionBefore(*yieldOf(*p.copies->regions[1]));
      // The iteration `ahead` is past this loop: the next loop's iteration t.
      Value* ahead = const_cast<Value*>(p.ahead);
      if (ahead->type.elem != type_.elem) ahead = b.one(OpKind::Convert, {ahead}, Type::scalar(type_.elem));
      Value* index = b.binary(BinOp::Div, b.binary(BinOp::Sub, ahead, p.loop->operands[0], type_.elem), p.loop->operands[2], type_.elem);
      copiesFrom(b, i + 1, b.binary(BinOp::Sub, index, trips_[i], type_.elem), p.slot);
    }
    for (std::size_t i = 1; i < pipes_.size(); ++i)
      for (Op* pro : pipes_[i].prologue) erase(*pro);
    return true;
  }

 private:
  Kernel& k_;
  Block& top_;
  std::vector<TmaPipe>& pipes_;
  Type type_;                   // the loops' induction variables' type
  std::vector<Value*> trips_;   // each loop's trip count (before the first)
  Op* anchor_ = nullptr;        // the first loop's first prologue copy, or the loop

  // What the later loops' bounds and copies read from the top level after the first loop's
  // prologue moves up before it: pure scalar arithmetic only (no loop's results).
  bool hoist() {
    anchor_ = pipes_[0].prologue.empty() ? pipes_[0].loop : pipes_[0].prologue[0];
    type_ = pipes_[0].loop->regions[0]->args[0]->type;
    std::map<const Op*, std::size_t> position;
    for (std::size_t i = 0; i < top_.ops.size(); ++i) position[top_.ops[i].get()] = i;
    const std::size_t from = position.at(anchor_);
    std::set<const Op*> moved;
    bool ok = true;
    std::function<void(const Value*)> need = [&](const Value* v) {
      const Op* d = v->def;
      if (!d || d->parent != &top_ || position.at(d) < from || moved.count(d)) return;
      if (d->kind == OpKind::LocalAlloc) return;  // a ring, replaced by the first loop's
      if (v->type.isTile() || !traits(d->kind).pure || !d->regions.empty()) {
        ok = false;
        return;
      }
      moved.insert(d);
      for (const Value* x : d->operands) need(x);
    };
    for (std::size_t i = 1; i < pipes_.size(); ++i) {
      const TmaPipe& p = pipes_[i];
      if (p.loop->regions[0]->args[0]->type != type_ || p.loop->cmp != CmpPred::Lt) return false;
      for (int j = 0; j < 3; ++j) need(p.loop->operands[static_cast<std::size_t>(j)]);
      for (const Op* o : p.chain)
        for (const Value* v : o->operands) need(v);
      need(p.copies->operands[0]);
      walk(static_cast<const Block&>(*p.copies->regions[0]), [&](const Op& o) {
        for (const Value* v : o.operands) need(v);
      });
    }
    if (!ok || pipes_[0].loop->cmp != CmpPred::Lt) return false;
    // In program order, before the anchor.
    std::vector<std::unique_ptr<Op>> up, rest;
    for (std::size_t i = from; i < top_.ops.size(); ++i) (moved.count(top_.ops[i].get()) ? up : rest).push_back(std::move(top_.ops[i]));
    top_.ops.resize(from);
    for (auto& o : up) top_.ops.push_back(std::move(o));
    for (auto& o : rest) top_.ops.push_back(std::move(o));
    return true;
  }

  // Each loop's trip count max(0, ceil((hi − lo) / step)), computed before the first loop in
  // 64 bits (hi − lo + step − 1 may not fit the induction variable's type).
  void tripCounts() {
    Builder b{k_, &top_, anchor_->loc, "trips", -1};
    b.setInsertionBefore(*anchor_);
    const ElemType e = type_.elem, wide = ElemType::of(Scalar::I64);
    auto widen = [&](Value* v) { return v->type.elem == wide ? v : b.one(OpKind::Convert, {v}, Type::scalar(wide)); };
    for (const TmaPipe& p : pipes_) {
      Value* lo = widen(p.loop->operands[0]);
      Value* hi = widen(p.loop->operands[1]);
      Value* step = widen(p.loop->operands[2]);
      Value* span = b.binary(BinOp::Add, b.binary(BinOp::Sub, hi, lo, wide), b.binary(BinOp::Sub, step, b.intConst(1, wide), wide), wide);
      Value* n = b.binary(BinOp::Div, span, step, wide);
      if (e != wide) n = b.one(OpKind::Convert, {n}, Type::scalar(e));
      Value* zero = b.intConst(0, e);
      Value* trips = b.create(OpKind::Select, {b.binary(BinOp::Lt, n, zero, ElemType::of(Scalar::Bool)), zero, n}, {type_})->result();
      trips->name = p.loop->regions[0]->args[0]->name + "_trips";
      trips_.push_back(trips);
    }
  }

  // At b: if iteration t of loop i exists (0 <= t < its trip count), its boxes into `slot`;
  // else on to the next loop.
  void copiesFrom(Builder& b, std::size_t i, Value* t, Value* slot) {
    const TmaPipe& p = pipes_[i];
    const ElemType e = type_.elem;
    Value* ahead = b.binary(BinOp::Add, p.loop->operands[0], b.binary(BinOp::Mul, t, p.loop->operands[2], e), e);
    const ElemType boolean = ElemType::of(Scalar::Bool);
    Value* cond = b.binary(BinOp::And, b.binary(BinOp::Ge, t, b.intConst(0, e), boolean), b.binary(BinOp::Lt, t, trips_[i], boolean), boolean);
    Op* guard = b.create(OpKind::If, {cond}, {});
    Builder then{k_, b.addRegion(guard), p.loop->loc, "chain", -1};
    Builder other{k_, b.addRegion(guard), p.loop->loc, "chain", -1};
    cloneCopies(then, p, ahead, slot);
    then.create(OpKind::Yield, {}, {});
    if (i + 1 < pipes_.size()) copiesFrom(other, i + 1, other.binary(BinOp::Sub, t, trips_[i], e), slot);
    other.create(OpKind::Yield, {}, {});
  }
};

}  // namespace

bool chainTmaLoops(Kernel& k, const Target& t) {
  if (!t.tma || k.producerWarps) return false;
  TmaPipes found;
  if (!findTmaPipes(k, found) || found.outer || found.pipes.size() < 2 || !sameRings(found.pipes)) return false;
  return Chain(k, found.pipes).run();
}

}  // namespace tilecc::ir
