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
// With mma.sync and three or more stages the copies go behind the iteration's last mma
// instead (issueBehindMma: ptxas keeps cp.async and ldmatrix in program order, so copies in
// front hold the tensor cores back until all their address arithmetic is done).
//
// The TMA form (sm_90a) is in PipelineTma.cpp.
//
// A load qualifies when its pointers and mask can be computed for a later iteration (from the
// induction variable, carried scalars advanced by an invariant step such as block pointers'
// offsets, and values defined before the loop, or a carried pointer advanced by an invariant
// step), masked-off elements are zero, whole 4-, 8- or 16-byte runs lie along the rows (for
// cp.async; TMA copies narrower ones too), and its value only fills a buffer that mma reads. Barriers come later, from the hazard
// analysis (insertBarriers). On sm_90a, where the batch cannot stay in flight, the copies
// still go behind it, before its wait (issueBehindWgmma).
#include "transform/Pipeliner.h"

#include "ir/Clone.h"
#include "ir/OpTraits.h"
#include "transform/GuardedLoads.h"
#include "transform/LoopChains.h"
#include "transform/Passes.h"

#include <algorithm>

namespace tilecc::ir {

namespace pipeliner {

void Pipeliner::run() {
  const int S = k_.numStages;
  if (loop_.cmp != CmpPred::Lt || !yieldOf(body_)) return;
  loadsAhead_ = !writesMemory(body_);
  users_ = collectUsers(*k_.body);
  for (auto& up : body_.ops)
    if (up->kind == OpKind::Load) consider(*up);
  if (pipes_.empty()) return;
  if (tmaBoxes()) return runTma();
  // Without the loads too narrow for cp.async: TMA for the rest, or cp.async.
  pipes_.erase(std::remove_if(pipes_.begin(), pipes_.end(), [](const Pipe& p) { return p.narrow; }), pipes_.end());
  if (pipes_.empty()) return;
  if (tmaBoxes()) return runTma();

  Builder pre{k_, loop_.parent, loop_.loc, iv_->name, -1};
  pre.setInsertionBefore(loop_);
  allocateRings(pre);
  std::vector<Value*> rings;
  for (const Pipe& p : pipes_) rings.push_back(p.ring);
  // Prologue: iterations 0 .. S−2 into slots 0 .. S−2.
  Value* lb = loop_.operands[0];
  Value* step = loop_.operands[2];
  for (int s = 0; s + 1 < S; ++s) {
    Value* it = s == 0 ? lb : pre.binary(BinOp::Add, lb, scaled(pre, step, s), lb->type.elem);
    issue(pre, it, [&](const Pipe& p) { return initOf(p); }, s, [&](Builder& b, const Pipe& p) {
      return slot(b, p.ring, pre.intConst(s));
    });
  }
  // Scalars loaded for the copies (a block mask, an index) are carried to the iteration they
  // were read for, instead of read again: S − 1 carried values, shifted by one each iteration.
  // Not those only the copied loads' addresses used (gone once the loads read the rings).
  std::set<const Op*> gone;
  for (const Pipe& p : pipes_) gone.insert(p.load);
  for (auto it = body_.ops.rbegin(); it != body_.ops.rend(); ++it) {
    const Op* o = it->get();
    if (o->results.empty() || !recomputable(*o, true)) continue;
    bool unused = true;
    for (const Value* r : o->results)
      for (const Op* u : users_[r]) unused = unused && gone.count(u);
    if (unused) gone.insert(o);
  }
  std::vector<std::pair<Op*, std::vector<Value*>>> carriedLoads;
  for (auto& [ld, clones] : aheadLoads_) {
    if (gone.count(ld)) continue;
    std::vector<Value*> args;
    const Value* r = ld->result();
    for (Value* v : clones) args.push_back(carry(v, (r->name.empty() ? r->hint : r->name) + "_carried"));
    carriedLoads.push_back({ld, args});
  }
  // The ring slots read and written: two more carried values.
  Value* read = carry(pre.intConst(0), "pipe_read");
  Value* write = carry(pre.intConst(S - 1), "pipe_write");
  // Top of the body: wait for this iteration's slot, issue the copies S−1 iterations ahead
  // (moved behind the dot below where that pays).
  Builder top{k_, &body_, loop_.loc, iv_->name, 0};
  Op* wait = top.create(OpKind::AsyncWait, rings, {});
  wait->count = S - 2;
  Value* ahead = top.binary(BinOp::Add, iv_, scaled(top, step, S - 1), iv_->type.elem);
  ahead->name = iv_->name + "_ahead";
  issue(top, ahead, [&](const Pipe& p) { return body_.args[static_cast<std::size_t>(p.carried) + 1]; }, S - 1,
        [&](Builder& b, const Pipe& p) { return slot(b, p.ring, write); });
  std::vector<Op*> issued;
  for (long i = Builder::indexOf(body_, wait) + 1; i < top.at; ++i) issued.push_back(body_.ops[static_cast<std::size_t>(i)].get());
  for (auto& [ld, args] : carriedLoads) {
    replaceAllUses(body_, ld->result(), args[0]);
    Op* y = yieldOf(body_);
    for (std::size_t j = 0; j < args.size(); ++j)
      y->operands[carriedIndex(loop_, args[j])] = j + 1 < args.size() ? args[j + 1] : aheadLoads_.at(ld).back();
  }
  readFromRings(top, read);
  if (!keepWgmmaInFlight(issued) && !issueBehindWgmma(issued)) issueBehindMma(issued);
  // Advance both slots around the ring before the yield.
  Op* y = yieldOf(body_);
  Builder end{k_, &body_, y->loc, "pipe", -1};
  end.setInsertionBefore(*y);
  y->operands[y->operands.size() - 2] = nextSlot(end, read);
  y->operands[y->operands.size() - 1] = nextSlot(end, write);
  // After the loop: the copies issued past the last iteration land before anything else
  // uses that memory.
  Builder after{k_, loop_.parent, loop_.loc, {}, -1};
  after.setInsertionAfter(loop_);
  Op* drain = after.create(OpKind::AsyncWait, rings, {});
  drain->count = 0;
}

void Pipeliner::consider(Op& ld) {
  Value* r = ld.result();
  const Value* ptrs = ld.operands[0];
  if (!ptrs->type.isTile() || r->type.rank() != 2) return;
  // Its value only fills one buffer of this body, written by nothing else and read by mma.
  const auto& us = users_[r];
  if (us.size() != 1 || us[0]->kind != OpKind::SharedStore || us[0]->parent != &body_ || us[0]->operands[0] != r) return;
  Op* st = us[0];
  Value* buf = st->operands[1];
  if (!buf->def || buf->def->kind != OpKind::LocalAlloc || buf->def->parent != &body_) return;
  if (!readAsDotOperandOnly(buf, st, users_[buf])) return;
  // Read only by wgmma of loops in this body (attention's queries in a persistent tile loop):
  // with TMA, the first of those loops copies it as a box of its own each iteration of this
  // one (invariantOperands), which a producer warp group can issue ahead.
  auto inLoop = [&](const Op* u) {
    for (const Op* a = u->parent->parent; a && a != &loop_; a = a->parent ? a->parent->parent : nullptr)
      if (a->kind == OpKind::For) return true;
    return false;
  };
  const bool inner =
      std::all_of(users_[buf].begin(), users_[buf].end(), [&](const Op* u) { return u == st || (u->kind == OpKind::Wgmma && inLoop(u)); });
  if (inner && t_.tma && t_.wgmma && k_.specialised && tmaBuffer(buf->type)) return;
  Pipe p;
  p.load = &ld;
  p.store = st;
  p.buffer = buf;
  std::set<const Op*> chain;
  if (!chainOf(body_, ptrs, iv_, chain, &inductions_, loadsAhead_)) {
    // Or a carried pointer advanced by a step that no iteration changes.
    for (std::size_t j = 1; j < body_.args.size(); ++j)
      if (body_.args[j] == ptrs) p.carried = static_cast<int>(j) - 1;
    if (p.carried < 0) return;
    p.inc = const_cast<Value*>(carriedStep(body_, ptrs));
    if (!p.inc || p.inc == iv_ || !chainOf(body_, p.inc, nullptr, chain)) return;
  }
  if (ld.operands.size() >= 2 && !chainOf(body_, ld.operands[1], iv_, chain, &inductions_, loadsAhead_)) return;
  if (ld.operands.size() >= 3 && !isZeroConstant(ld.operands[2])) return;  // masked-off elements are zero-filled
  // Whole 4-, 8- or 16-byte runs along the buffer's rows, as the layout holds them: the
  // tile's rows, or its columns for a transposed store (B given K-contiguous: [N][K]).
  p.axis = st->transposed ? 0 : 1;
  const int eb = r->type.elem.bytes();
  const int spt = axisGeom(k_.layoutOf(ptrs), p.axis, ptrs->type.shape[static_cast<std::size_t>(p.axis)]).spt;
  p.vec = std::min(ld.access.vec, spt & -spt);
  p.narrow = ld.access.axis != p.axis || p.vec * eb < 4;  // too narrow for cp.async; TMA may still copy it
  pipes_.push_back(p);
}

// v · n, for a scalar or a tile (n splat in v's layout).
Value* Pipeliner::scaled(Builder& b, Value* v, std::int64_t n) {
  Value* c = b.intConst(n, v->type.elem);
  if (v->type.isTile()) {
    c = b.one(OpKind::Splat, {c}, v->type);
    c->layout = v->layout;
  }
  Value* m = b.binary(BinOp::Mul, v, c, v->type.elem);
  m->layout = v->layout;
  return m;
}


Value* Pipeliner::slot(Builder& b, Value* ring, Value* index) {
  Type t = ring->type;
  t.stages = 1;
  Value* s = b.one(OpKind::SharedSlot, {ring, index}, t);
  s->name = ring->name + "_slot";
  return s;
}

// Copies for iteration `it` (`ahead` iterations after the carried pointers' values `base`).
void Pipeliner::issue(Builder& b, Value* it, const std::function<Value*(const Pipe&)>& base, int ahead,
                      const std::function<Value*(Builder&, const Pipe&)>& slotOf) {
  Value* bound = loop_.operands[1];
  Value* itc = it;
  if (it->type.elem != bound->type.elem) {
    itc = b.one(OpKind::Convert, {it}, bound->type);
  }
  Value* in = b.binary(BinOp::Lt, itc, bound, ElemType::of(Scalar::Bool));
  // The address and mask computations of every pipelined load, once, in body order.
  std::set<const Op*> chain;
  std::set<const Value*> inds;
  for (const Pipe& p : pipes_) {
    if (p.carried < 0) chainOf(body_, p.load->operands[0], iv_, chain, &inds, loadsAhead_);
    else if (ahead > 0) chainOf(body_, p.inc, nullptr, chain);
    if (p.load->operands.size() >= 2) chainOf(body_, p.load->operands[1], iv_, chain, &inds, loadsAhead_);
  }
  ValueMap map{{iv_, it}};
  auto mapped = [&](const Value* v) { return map.count(v) ? map.at(v) : const_cast<Value*>(v); };
  auto cloneInOrder = [&](const std::set<const Op*>& ops) {
    std::vector<const Op*> ordered;  // in body order (cloning may insert into the body itself)
    for (const auto& op : body_.ops)
      if (ops.count(op.get()) && !map.count(op->results.empty() ? nullptr : op->results[0])) ordered.push_back(op.get());
    for (const Op* op : ordered) {
      // A scalar read ahead (a block mask, an index): only for an iteration in range.
      Value* guard = op->kind != OpKind::Load        ? nullptr
                     : op->operands.size() == 1     ? in
                                                    : b.binary(BinOp::And, mapped(op->operands[1]), in, ElemType::of(Scalar::Bool));
      Op* c = cloneOp(b, *op, map);
      if (!guard) continue;
      aheadLoads_[const_cast<Op*>(op)].push_back(c->result());
      if (c->operands.size() == 1) c->operands.push_back(guard);
      else c->operands[1] = guard;
    }
  };
  // Carried inductions (in body-argument order): their steps first, then their values
  // `ahead` iterations on, from their initial values in the prologue.
  std::set<const Op*> steps;
  for (const Value* a : body_.args)
    if (inds.count(a)) chainOf(body_, inductionStep(body_, a), nullptr, steps);
  cloneInOrder(steps);
  const bool inLoop = b.block == &body_;
  for (std::size_t j = 1; j < body_.args.size(); ++j) {
    Value* a = body_.args[j];
    if (!inds.count(a)) continue;
    Value* start = inLoop ? a : loop_.operands[j + 2];
    Value* step = mapped(inductionStep(body_, a));
    if (ahead > 0) {
      Value* d = scaled(b, step, ahead);
      start = a->type.elem.isPtr() ? b.one(OpKind::AddPtr, {start, d}, a->type) : b.binary(BinOp::Add, start, d, a->type.elem);
    }
    map[a] = start;
  }
  cloneInOrder(chain);
  struct Copy {
    const Pipe* pipe;
    Value *ptrs, *dst, *mask;
    const Value* when;  // see guardOfCopy
  };
  std::vector<Copy> guarded;
  auto copy = [&](Builder& cb, const Copy& c) {
    Op* o = cb.create(OpKind::AsyncCopy, {c.ptrs, c.dst, c.mask, in}, {});
    o->access = Access{c.pipe->vec, c.pipe->axis, {}};
    o->transposed = c.pipe->store->transposed;
    o->loc = c.pipe->load->loc;
  };
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
    const Copy c{&p, ptrs, slotOf(b, p), mask, guardOfCopy(*p.load, p.store, users_[p.buffer], body_)};
    if (c.when) guarded.push_back(c);
    else copy(b, c);
  }
  // A copy whose slot stays unread where a condition is false goes under `if` it (one `if` per
  // condition, after every copy's operands): not issued at all then.
  std::vector<const Value*> conditions;
  for (const Copy& c : guarded)
    if (std::find(conditions.begin(), conditions.end(), c.when) == conditions.end()) conditions.push_back(c.when);
  for (const Value* when : conditions) {
    Op* g = b.create(OpKind::If, {mapped(when)}, {});
    Builder then{k_, b.addRegion(g), loop_.loc, iv_->name, -1};
    for (const Copy& c : guarded)
      if (c.when == when) copy(then, c);
    then.create(OpKind::Yield, {}, {});
    Builder{k_, b.addRegion(g), loop_.loc, iv_->name, -1}.create(OpKind::Yield, {}, {});
  }
  b.create(OpKind::AsyncCommit, {}, {});
}

// One iteration's wgmma batch stays in flight during the next: the loop waits only for the
// batches before it (wait 1), and copies into the slot the previous iteration read after
// that wait (`copies`: the ops that issue them, in body order; the barrier pass puts a CTA
// barrier between the wait and the first copy, since every warp group's previous batch read
// that slot); the loop's result is waited for after the loop. Done where the batch reads the
// ring and its accumulator is carried, waited for right after, and used by nothing else.
bool Pipeliner::keepWgmmaInFlight(const std::vector<Op*>& copies) {
  if (copies.empty()) return false;
  Op* y = yieldOf(body_);
  auto users = collectUsers(body_);
  for (std::size_t i = 0; i + 1 < body_.ops.size(); ++i) {
    Op* w = body_.ops[i].get();
    Op* ww = body_.ops[i + 1].get();
    if (w->kind != OpKind::Wgmma || ww->kind != OpKind::WgmmaWait || ww->count != 0 || ww->operands.size() != 1 ||
        ww->operands[0] != w->result())
      continue;
    // Both operands in this pipeline's rings: any other buffer could be rewritten by the next
    // iteration while the batch still reads it.
    if (!inRing(w->operands[0]) || !inRing(w->operands[1])) continue;
    const Value* acc = w->operands[2];
    const auto j = static_cast<std::size_t>(std::find(body_.args.begin(), body_.args.end(), acc) - body_.args.begin());
    if (j == 0 || j >= body_.args.size() || users[acc].size() != 1 || users[w->result()].size() != 1) continue;
    const auto& waitedUsers = users[ww->result()];
    if (waitedUsers.size() != 1 || waitedUsers[0] != y || y->operands[j - 1] != ww->result()) continue;
    y->operands[j - 1] = w->result();
    ww->operands.clear();
    ww->results.clear();
    ww->count = 1;
    // The next copies go after the wait: their slot was read by the batch it completes.
    moveAfter(copies, ww);
    Value* result = loop_.results[j - 1];
    Builder after{k_, loop_.parent, loop_.loc, {}, -1};
    after.setInsertionAfter(loop_);
    Op* fin = after.create(OpKind::WgmmaWait, {}, {result->type});
    fin->count = 0;
    fin->result()->layout = result->layout;
    fin->result()->name = result->name;
    fin->result()->hint = result->hint;
    replaceAllUses(*k_.body, result, fin->result());
    fin->operands = {result};
    return true;
  }
  return false;
}

// On sm_90a the copies (their address arithmetic and cp.async instructions, the longest part
// of a gathered operand's iteration) go after the wgmma batch is issued and before its wait,
// so the tensor cores work while the threads copy. The copies write slot `write`, never the
// slot `read` the batch reads, and the previous batch that read slot `write` was waited for
// before the barrier at the top of the iteration. Done where the loop's wgmma reads only the
// rings and is waited for right after.
bool Pipeliner::issueBehindWgmma(const std::vector<Op*>& issued) {
  if (issued.empty()) return false;
  Op* batch = nullptr;
  for (std::size_t i = 0; i + 1 < body_.ops.size(); ++i) {
    Op* w = body_.ops[i].get();
    Op* ww = body_.ops[i + 1].get();
    if (w->kind != OpKind::Wgmma || ww->kind != OpKind::WgmmaWait || ww->count != 0 || ww->operands.size() != 1 ||
        ww->operands[0] != w->result())
      continue;
    if (batch || !inRing(w->operands[0]) || !inRing(w->operands[1])) return false;  // one batch, from the rings
    batch = w;
  }
  if (!batch) return false;
  moveBehind(issued, batch, {batch});
  return true;
}

// With mma.sync (sm_80 path) the copies go after the iteration's last mma that reads a ring:
// ptxas keeps cp.async and ldmatrix in program order, so copies first hold the tensor cores
// back until every copy's address arithmetic is done; behind the mma, that arithmetic fills
// the issue slots between mma instructions. The copies then have S − 2 iterations instead of
// S − 1 to land, so only with three or more stages. The copies write slot `write` and the mma
// read slot `read` (the barrier pass keeps them apart by role, as for wgmma).
void Pipeliner::issueBehindMma(const std::vector<Op*>& issued) {
  if (issued.empty() || k_.numStages < 3) return;
  Op* last = nullptr;
  for (const auto& o : body_.ops)
    if (o->kind == OpKind::Mma && (inRing(o->operands[0]) || inRing(o->operands[1]))) last = o.get();
  if (!last) return;
  std::vector<const Op*> readers;
  for (const auto& o : body_.ops)
    if (o->kind == OpKind::Mma) readers.push_back(o.get());
  moveBehind(issued, last, readers);
}

// Moves the copies right after `anchor`, giving the slots their roles so that the barrier
// pass may keep them apart from the dots' reads (InsertBarriers): the copies' slots are the
// slot ahead, the ring slots `readers` read the current one.
void Pipeliner::moveBehind(const std::vector<Op*>& issued, const Op* anchor, const std::vector<const Op*>& readers) {
  for (Op* o : issued)
    if (o->kind == OpKind::SharedSlot) o->count = kSlotAhead;
  for (const Op* r : readers)
    for (const Value* v : {r->operands[0], r->operands[1]})
      if (inRing(v)) v->def->count = kSlotCurrent;
  moveAfter(issued, anchor);
}

// A slot of one of this pipeline's rings.
bool Pipeliner::inRing(const Value* v) const {
  return v->def && v->def->kind == OpKind::SharedSlot &&
         std::any_of(pipes_.begin(), pipes_.end(), [&](const Pipe& p) { return v->def->operands[0] == p.ring; });
}

// Moves `ops` (of the body, in body order) right after `anchor`, keeping their order.
void Pipeliner::moveAfter(const std::vector<Op*>& ops, const Op* anchor) {
  std::vector<std::unique_ptr<Op>> moved;
  for (Op* o : ops) {
    const long at = Builder::indexOf(body_, o);
    moved.push_back(std::move(body_.ops[static_cast<std::size_t>(at)]));
    body_.ops.erase(body_.ops.begin() + at);
  }
  body_.ops.insert(body_.ops.begin() + Builder::indexOf(body_, anchor) + 1, std::make_move_iterator(moved.begin()),
                   std::make_move_iterator(moved.end()));
}

// A ring of num_stages slots per pipelined load, before the loop.
void Pipeliner::allocateRings(Builder& pre) {
  const Pipe* narrow = nullptr;  // in the TMA variant, a ring whose rows TMA does not take
  for (const Pipe& p : pipes_) {
    const Type& t = p.buffer->type;
    if (!narrow && t_.tma && t_.wgmma && k_.specialised && t.shape.size() == 2 && t.shape[1] * t.elem.bytes() < 128) narrow = &p;
  }
  for (Pipe& p : pipes_) {
    const Type& t = p.buffer->type;
    p.ring = pre.one(OpKind::LocalAlloc, {}, Type::shared(t.elem, t.shape, k_.numStages, t.smem));
    const Value* r = p.load->result();
    p.ring->name = (r->name.empty() ? r->hint : r->name) + "_ring";
    // In the TMA variant, why the loop's rings are not (tmaBuffer): for the report.
    if (narrow == &p) {
      const std::string why = "rows of " + std::to_string(t.shape[1] * t.elem.bytes()) + " bytes at line " +
                              std::to_string(p.load->loc.line) + ", where TMA measured slower than cp.async (TMA takes 128-byte rows)";
      p.ring->def->note = "not TMA: " + why;
      if (k_.noTma.empty()) k_.noTma = why;
    } else if (narrow)
      p.ring->def->note = "not TMA: the loop's operands go by TMA together, and the load at line " + std::to_string(narrow->load->loc.line) +
                          " has rows of " + std::to_string(narrow->buffer->type.shape[1] * narrow->buffer->type.elem.bytes()) + " bytes";
  }
}

// The body reads slot `read` of each ring where it read the load's buffer; the load, its
// store and the buffer go.
void Pipeliner::readFromRings(Builder& top, Value* read) {
  for (Pipe& p : pipes_) {
    replaceAllUses(body_, p.buffer, slot(top, p.ring, read));
    erase(*p.store);
    p.load->results.clear();
    erase(*p.load);
    erase(*p.buffer->def);
  }
}

// The slot after `cur` around the ring; `wrapped`, where given, gets cur == S − 1.
Value* Pipeliner::nextSlot(Builder& b, Value* cur, Value** wrapped) {
  Value* last = b.binary(BinOp::Eq, cur, b.intConst(k_.numStages - 1), ElemType::of(Scalar::Bool));
  Value* next = b.binary(BinOp::Add, cur, b.intConst(1), cur->type.elem);
  if (wrapped) *wrapped = last;
  return b.create(OpKind::Select, {last, b.intConst(0), next}, {cur->type})->result();
}

}  // namespace pipeliner

void pipelineLoops(Kernel& k, const Target& t) {
  if (!t.asyncCopy || k.numStages < 2) return;
  std::vector<Op*> loops;
  walk(*k.body, [&](Op& o) {
    if (o.kind == OpKind::For) loops.push_back(&o);
  });
  for (Op* l : loops) pipeliner::Pipeliner(k, *l, t).run();
  notePipelineMisses(k);
}

}  // namespace tilecc::ir
