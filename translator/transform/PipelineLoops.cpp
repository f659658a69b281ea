// Software pipelining of the loads that feed shared memory in a loop (dot operands): each
// becomes cp.async copies into a ring of num_stages slots, issued num_stages − 1 iterations
// ahead, so that memory and tensor cores overlap:
//
//   rings = local_alloc                        (before the loop)
//   copies for iterations 0 .. S−2 → slots 0 .. S−2; each iteration's copies one commit group
//   for (iv ...; read = 0, write = S−1) {
//     async_wait (S−2 groups may stay pending)  → this iteration's slot has landed
//     copies for iteration iv + (S−1)·step → slot `write`; commit
//     ... the body, reading slot `read` where it read the buffer ...
//     read, write advance around the ring
//   }
//   async_wait 0                               (copies past the last iteration, zero-filled)
//
// A load qualifies when its pointers and mask can be computed for a later iteration (from the
// induction variable and values defined before the loop, or a carried pointer advanced by an
// invariant step), masked-off elements are zero, whole 4-, 8- or 16-byte runs lie along the
// rows, and its value only fills a buffer that mma reads. Barriers come later, from the hazard
// analysis (insertBarriers).
#include "ir/Clone.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>

namespace tilecc::ir {

namespace {

struct Pipe {
  Op* load = nullptr;
  Op* store = nullptr;
  Value* buffer = nullptr;
  int carried = -1;        // the pointer's index among the carried values, or -1: recomputed
  Value* inc = nullptr;    // for a carried pointer: its step per iteration
  int vec = 1;
  int axis = 1;             // the tile axis of the runs: a buffer row (0 for a transposed store)
  Value* ring = nullptr;
};

bool recomputable(const Op& o) {
  const OpTraits& t = traits(o.kind);
  return t.pure && o.regions.empty() && (t.family == Family::Scalar || t.family == Family::Shape || t.family == Family::Elementwise);
}

// The ops of `body` that v depends on, when v can be computed anywhere from `iv`, constants and
// values defined before the loop through pure ops; added to `chain`. False if it cannot.
bool chainOf(const Block& body, const Value* v, const Value* iv, std::set<const Op*>& chain) {
  std::set<const Op*> seen;
  bool ok = true;
  std::function<void(const Value*)> visit = [&](const Value* x) {
    if (!ok || x == iv) return;
    const Op* d = x->def;
    if (!d) {  // a block argument: of this loop's body (carried) or of an enclosing block
      if (x->owner == &body || (x->owner && within(x->owner, body))) ok = false;
      return;
    }
    if (d->parent != &body) {  // defined before the loop, or nested inside the body
      if (within(d->parent, body)) ok = false;
      return;
    }
    if (!recomputable(*d)) {
      ok = false;
      return;
    }
    if (!seen.insert(d).second) return;
    for (const Value* y : d->operands) visit(y);
  };
  visit(v);
  if (ok) chain.insert(seen.begin(), seen.end());
  return ok;
}

bool isZero(const Value* v) {
  while (v->def && (v->def->kind == OpKind::Splat || v->def->kind == OpKind::Broadcast || v->def->kind == OpKind::Convert))
    v = v->def->operands[0];
  if (!v->def || v->def->kind != OpKind::Constant) return false;
  std::uint64_t bits;
  std::memcpy(&bits, &v->def->floatValue, sizeof bits);
  return v->def->intValue == 0 && bits == 0;
}

class Pipeliner {
 public:
  Pipeliner(Kernel& k, Op& loop) : k_(k), loop_(loop), body_(*loop.regions[0]), iv_(body_.args[0]) {}

  void run() {
    const int S = k_.numStages;
    if (loop_.cmp != CmpPred::Lt || !yieldOf(body_)) return;
    users_ = collectUsers(*k_.body);
    for (auto& up : body_.ops)
      if (up->kind == OpKind::Load) consider(*up);
    if (pipes_.empty()) return;

    Builder pre{k_, loop_.parent, loop_.loc, iv_->name, -1};
    pre.setInsertionBefore(loop_);
    std::vector<Value*> rings;
    for (Pipe& p : pipes_) {
      const Type& t = p.buffer->type;
      p.ring = pre.one(OpKind::LocalAlloc, {}, Type::shared(t.elem, t.shape, S, t.smem));
      const Value* r = p.load->result();
      p.ring->name = (r->name.empty() ? r->hint : r->name) + "_ring";
      rings.push_back(p.ring);
    }
    // Prologue: iterations 0 .. S−2 into slots 0 .. S−2.
    Value* lb = loop_.operands[0];
    Value* step = loop_.operands[2];
    for (int s = 0; s + 1 < S; ++s) {
      Value* it = s == 0 ? lb : pre.binary(BinOp::Add, lb, scaled(pre, step, s), lb->type.elem);
      issue(pre, it, [&](const Pipe& p) { return initOf(p); }, s, [&](Builder& b, const Pipe& p) {
        return slot(b, p.ring, pre.intConst(s));
      });
    }
    // The ring slots read and written: two more carried values.
    Value* read = carry(pre.intConst(0), "pipe_read");
    Value* write = carry(pre.intConst(S - 1), "pipe_write");
    // Top of the body: wait for this iteration's slot, issue the copies S−1 iterations ahead.
    Builder top{k_, &body_, loop_.loc, iv_->name, 0};
    Op* wait = top.create(OpKind::AsyncWait, rings, {});
    wait->count = S - 2;
    Value* ahead = top.binary(BinOp::Add, iv_, scaled(top, step, S - 1), iv_->type.elem);
    ahead->name = iv_->name + "_ahead";
    issue(top, ahead, [&](const Pipe& p) { return body_.args[static_cast<std::size_t>(p.carried) + 1]; }, S - 1,
          [&](Builder& b, const Pipe& p) { return slot(b, p.ring, write); });
    for (Pipe& p : pipes_) {
      Value* current = slot(top, p.ring, read);
      replaceAllUses(body_, p.buffer, current);
      erase(*p.store);
      p.load->results.clear();
      erase(*p.load);
      erase(*p.buffer->def);
    }
    // Advance both slots around the ring before the yield.
    Op* y = yieldOf(body_);
    Builder end{k_, &body_, y->loc, "pipe", -1};
    end.setInsertionBefore(*y);
    for (std::size_t j = y->operands.size() - 2; j < y->operands.size(); ++j) {
      Value* cur = body_.args[j + 1];
      Value* last = end.binary(BinOp::Eq, cur, end.intConst(S - 1), ElemType::of(Scalar::Bool));
      Value* next = end.binary(BinOp::Add, cur, end.intConst(1), cur->type.elem);
      Op* sel = end.create(OpKind::Select, {last, end.intConst(0), next}, {cur->type});
      y->operands[j] = sel->result();
    }
    // After the loop: the copies issued past the last iteration land before anything else
    // uses that memory.
    Builder after{k_, loop_.parent, loop_.loc, {}, -1};
    after.setInsertionAfter(loop_);
    Op* drain = after.create(OpKind::AsyncWait, rings, {});
    drain->count = 0;
  }

 private:
  Kernel& k_;
  Op& loop_;
  Block& body_;
  Value* iv_;
  std::vector<Pipe> pipes_;
  std::map<const Value*, std::vector<Op*>> users_;

  void consider(Op& ld) {
    Value* r = ld.result();
    const Value* ptrs = ld.operands[0];
    if (!ptrs->type.isTile() || r->type.rank() != 2) return;
    // Its value only fills one buffer of this body, written by nothing else and read by mma.
    const auto& us = users_[r];
    if (us.size() != 1 || us[0]->kind != OpKind::SharedStore || us[0]->parent != &body_ || us[0]->operands[0] != r) return;
    Op* st = us[0];
    Value* buf = st->operands[1];
    if (!buf->def || buf->def->kind != OpKind::LocalAlloc || buf->def->parent != &body_) return;
    for (const Op* u : users_[buf])
      if (u != st && !((u->kind == OpKind::Mma || u->kind == OpKind::Wgmma) && u->operands[2] != buf)) return;
    Pipe p;
    p.load = &ld;
    p.store = st;
    p.buffer = buf;
    std::set<const Op*> chain;
    if (!chainOf(body_, ptrs, iv_, chain)) {
      // Or a carried pointer advanced by a step that no iteration changes.
      for (std::size_t j = 1; j < body_.args.size(); ++j)
        if (body_.args[j] == ptrs) p.carried = static_cast<int>(j) - 1;
      if (p.carried < 0) return;
      const Value* next = yieldOf(body_)->operands[static_cast<std::size_t>(p.carried)];
      if (!next->def || next->def->kind != OpKind::AddPtr || next->def->operands[0] != ptrs) return;
      p.inc = next->def->operands[1];
      if (p.inc == iv_ || !chainOf(body_, p.inc, nullptr, chain)) return;
    }
    if (ld.operands.size() >= 2 && !chainOf(body_, ld.operands[1], iv_, chain)) return;
    if (ld.operands.size() >= 3 && !isZero(ld.operands[2])) return;  // masked-off elements are zero-filled
    // Whole 4-, 8- or 16-byte runs along the buffer's rows, as the layout holds them: the
    // tile's rows, or its columns for a transposed store (B given K-contiguous: [N][K]).
    p.axis = st->transposed ? 0 : 1;
    const int eb = r->type.elem.bytes();
    const int spt = axisGeom(k_.layoutOf(ptrs), p.axis, ptrs->type.shape[static_cast<std::size_t>(p.axis)]).spt;
    p.vec = std::min(ld.access.vec, spt & -spt);
    if (ld.access.axis != p.axis || p.vec * eb < 4) return;
    pipes_.push_back(p);
  }

  // v · n, for a scalar or a tile (n splat in v's layout).
  Value* scaled(Builder& b, Value* v, std::int64_t n) {
    Value* c = b.intConst(n, v->type.elem);
    if (v->type.isTile()) {
      c = b.one(OpKind::Splat, {c}, v->type);
      c->layout = v->layout;
    }
    Value* m = b.binary(BinOp::Mul, v, c, v->type.elem);
    m->layout = v->layout;
    return m;
  }

  Value* initOf(const Pipe& p) { return loop_.operands[static_cast<std::size_t>(p.carried) + 3]; }

  Value* slot(Builder& b, Value* ring, Value* index) {
    Type t = ring->type;
    t.stages = 1;
    Value* s = b.one(OpKind::SharedSlot, {ring, index}, t);
    s->name = ring->name + "_slot";
    return s;
  }

  // Copies for iteration `it` (`ahead` iterations after the carried pointers' values `base`).
  void issue(Builder& b, Value* it, const std::function<Value*(const Pipe&)>& base, int ahead,
             const std::function<Value*(Builder&, const Pipe&)>& slotOf) {
    Value* bound = loop_.operands[1];
    Value* itc = it;
    if (it->type.elem != bound->type.elem) {
      itc = b.one(OpKind::Convert, {it}, bound->type);
    }
    Value* in = b.binary(BinOp::Lt, itc, bound, ElemType::of(Scalar::Bool));
    // The address and mask computations of every pipelined load, once, in body order.
    std::set<const Op*> chain;
    for (const Pipe& p : pipes_) {
      if (p.carried < 0) chainOf(body_, p.load->operands[0], iv_, chain);
      else if (ahead > 0) chainOf(body_, p.inc, nullptr, chain);
      if (p.load->operands.size() >= 2) chainOf(body_, p.load->operands[1], iv_, chain);
    }
    ValueMap map{{iv_, it}};
    std::vector<const Op*> ordered;  // in body order (cloning may insert into the body itself)
    for (const auto& op : body_.ops)
      if (chain.count(op.get())) ordered.push_back(op.get());
    for (const Op* op : ordered) cloneOp(b, *op, map);
    auto mapped = [&](const Value* v) { return map.count(v) ? map.at(v) : const_cast<Value*>(v); };
    for (const Pipe& p : pipes_) {
      const Value* ptrs0 = p.load->operands[0];
      Value* ptrs;
      if (p.carried < 0) {
        ptrs = mapped(ptrs0);
      } else {
        ptrs = base(p);
        if (ahead > 0) {
          Value* inc = mapped(p.inc);
          if (!inc->type.isTile()) {
            inc = b.one(OpKind::Splat, {inc}, ptrs->type.withElem(inc->type.elem));
            inc->layout = ptrs->layout;
          }
          ptrs = b.one(OpKind::AddPtr, {ptrs, scaled(b, inc, ahead)}, ptrs->type);
          ptrs->layout = ptrs0->layout;
        }
      }
      Value* mask;
      if (p.load->operands.size() >= 2) {
        mask = mapped(p.load->operands[1]);
      } else {
        Value* t = b.intConst(1, ElemType::of(Scalar::Bool));
        mask = b.one(OpKind::Splat, {t}, ptrs->type.withElem(ElemType::of(Scalar::Bool)));
        mask->layout = ptrs0->layout;
      }
      Op* c = b.create(OpKind::AsyncCopy, {ptrs, slotOf(b, p), mask, in}, {});
      c->access = Access{p.vec, p.axis, {}};
      c->transposed = p.store->transposed;
      c->loc = p.load->loc;
    }
    b.create(OpKind::AsyncCommit, {}, {});
  }

  // Adds a loop-carried scalar with initial value `init` (unchanged by the body until the
  // caller rewrites its yield operand); returns the body's block argument.
  Value* carry(Value* init, const std::string& name) {
    loop_.operands.push_back(init);
    Value* arg = k_.newValue(init->type, name);
    arg->owner = &body_;
    body_.args.push_back(arg);
    Value* res = k_.newValue(init->type, name);
    res->def = &loop_;
    loop_.results.push_back(res);
    yieldOf(body_)->operands.push_back(arg);
    return arg;
  }
};

}  // namespace

void pipelineLoops(Kernel& k, const Target& t) {
  if (!t.asyncCopy || k.numStages < 2) return;
  std::vector<Op*> loops;
  walk(*k.body, [&](Op& o) {
    if (o.kind == OpKind::For) loops.push_back(&o);
  });
  for (Op* l : loops) Pipeliner(k, *l).run();
}

}  // namespace tilecc::ir
