// The TMA form of pipeline-loops (PipelineLoops.cpp has the pass and the cp.async form).
//
// On sm_90a, in the `_tma` variant (Target::tma: arguments checked by the launcher, which
// falls back to the aligned variant), when every such load's pointers and mask are a
// structured box (analysis/StructuredAccess.h) into 128-byte swizzled buffers, they become TMA
// copies instead: one thread copies each box, and a ring of mbarriers ("full", one per slot)
// tells every thread when a slot has landed:
//
//   full = mbarriers[S], each expecting one arrival; TMA descriptors become parameters
//   if (iteration s in range) { expect_tx(full[s], bytes); tma boxes → slot s }   s = 0 .. S−2
//   for (iv ...; read = 0, write = S−1, phase = 0) {
//     wait(full[read], phase)                   → this iteration's slot has landed
//     if (iv + (S−1)·step in range) { expect_tx(full[write], bytes); tma boxes → slot write }
//     ... the body ...
//     read, write advance; phase flips when read wraps
//   }
//
// Copies for iterations past the end are not issued, so none is in flight after the loop and
// trip counts 0, 1 or fewer than S need nothing else. A load before the loop that only fills a
// buffer the loop's wgmma read (attention's queries) is a box of its own, on one more mbarrier,
// waited for before the loop (invariantOperands). Where the loop's wgmma reads only the
// rings, its batch stays in flight, with TMA or cp.async copies alike: wait 1 after it, the
// copies moved after that wait (and after a CTA barrier: every warp group's previous batch read
// that slot), wait 0 after the loop (keepWgmmaInFlight).
#include "transform/Pipeliner.h"

#include "ir/Clone.h"
#include "transform/LoopChains.h"
#include "transform/TensorMaps.h"
#include "transform/Passes.h"

#include <algorithm>

namespace tilecc::ir::pipeliner {

// A buffer TMA fills box by box: rows of whole 128-byte panels, 128-byte swizzled. Narrower
// rows (64- and 32-byte swizzles: BLOCK_K = 32 or 16 in f16) would be boxes as well, but measured
// slower than cp.async (the tutorial GEMM at 4096³ on an H100: 487 against 503 TFLOP/s at
// BLOCK_K = 32, 326 against 337 at 16; tests/bench/results/2026-11-27-h100-im2col.txt).
bool tmaBuffer(const Type& bt) {
  return bt.shape.size() == 2 && bt.smem.swizzle == 128 && bt.shape[0] <= 256 && (bt.shape[1] * bt.elem.bytes()) % 128 == 0;
}

namespace {

// The TMA copies filling `dst` (a buffer or a ring slot of type `bt`), one box per 128-byte
// panel, completing on mbarrier `index` of `full`: coordinates innermost last in `starts`,
// im2col offsets after them.
void boxCopies(Builder& b, const Type& bt, Value* desc, Value* dst, Value* full, Value* index, const std::vector<Value*>& starts,
               const std::vector<Value*>& offsets, const Loc& loc) {
  const int inner = bt.smem.swizzle / bt.elem.bytes();
  for (int panel = 0; panel < bt.shape[1] / inner; ++panel) {
    std::vector<Value*> ops{desc, dst, full, index};
    ops.insert(ops.end(), starts.begin(), starts.end() - 1);
    Value* last = starts.back();
    if (panel) last = b.binary(BinOp::Add, last, b.intConst(panel * inner), last->type.elem);
    ops.push_back(last);
    ops.insert(ops.end(), offsets.begin(), offsets.end());
    Op* c = b.create(OpKind::TmaLoad, ops, {});
    c->count = panel;
    c->axis = static_cast<int>(offsets.size());
    c->loc = loc;
  }
}

bool nonNegativeConstant(const Poly& p) {
  auto c = p.constantValue();
  return c && *c >= 0;
}

}  // namespace

// Every pipelined load a structured box into a 128-byte swizzled buffer, in a variant whose
// arguments the launcher checks: then the loop copies with TMA.
bool Pipeliner::tmaBoxes() {
  if (!t_.tma || !t_.wgmma || !k_.specialised) return false;
  if (!trip_) {
    trip_ = k_.newValue(Type::scalar(ElemType::of(Scalar::I32)), "trip");
    trip_->owner = &body_;  // an atom, never an operand
  }
  for (Pipe& p : pipes_) {
    const Type& bt = p.buffer->type;
    if (!tmaBuffer(bt)) return false;  // narrower rows stay on cp.async
    // A transposed store keeps the buffer in memory's order: the box is the buffer's.
    p.box = structuredBox(k_, loop_, *p.load, trip_, p.store->transposed);
    if (!p.box && !p.store->transposed) p.im2col = im2colBox(k_, loop_, *p.load);
    if (!p.box && (!p.im2col || p.im2col->rows != bt.shape[0])) return false;
  }
  // Scalars of the iteration in the copies' coordinates are recomputed for later iterations.
  std::set<const Op*> chain;
  for (const Value* a : loopAtoms())
    if (a->owner || !chainOf(body_, a, iv_, chain, nullptr, loadsAhead_)) return false;
  // Unit strides the boxes need become assumptions of this variant, checked by the launcher.
  for (const Pipe& p : pipes_) {
    if (!p.box) continue;
    const std::pair<int, std::int64_t> unit{p.box->unitParam, kEqualsOne};
    if (p.box->unitParam >= 0 && std::find(k_.assumed.begin(), k_.assumed.end(), unit) == k_.assumed.end()) {
      k_.assumed.erase(std::remove_if(k_.assumed.begin(), k_.assumed.end(), [&](const auto& a) { return a.first == unit.first; }),
                       k_.assumed.end());
      k_.assumed.push_back(unit);
    }
  }
  return true;
}

// The atoms of the copies' coordinates that are scalars computed in the loop's body.
std::vector<const Value*> Pipeliner::loopAtoms() const {
  std::vector<const Value*> atoms;
  auto add = [&](const Poly& p) {
    for (const auto& [m, c] : p.terms)
      for (const Value* a : m)
        if (a != trip_ && ((a->def && within(a->def->parent, body_)) || (a->owner && within(a->owner, body_))) &&
            std::find(atoms.begin(), atoms.end(), a) == atoms.end())
          atoms.push_back(a);
  };
  for (const Pipe& p : pipes_) {
    if (p.box) {
      for (const Poly& x : p.box->starts) add(x);
      for (const Poly& x : p.box->iterChecks) add(x);
    }
    if (p.im2col) {
      add(p.im2col->channelStart);
      for (const Poly& x : p.im2col->offsets) add(x);
    }
  }
  return atoms;
}

// The descriptor parameter of a pipe's tensor.
Value* Pipeliner::descriptor(const Pipe& p) {
  const Value* r = p.load->result();
  const std::string name = (r->name.empty() ? r->hint : r->name) + "_desc";
  return p.im2col ? addIm2colDescriptor(k_, *p.im2col, p.buffer->type, name) : addTensorDescriptor(k_, *p.box, p.buffer->type, name);
}

// Before the loop: the window position of the program's first pixel, m0 taken apart into
// (image, spatial coordinates outermost first), each spatial one moved by −shift.
void Pipeliner::pixelStart(Builder& pre, Pipe& p) {
  const Im2colBox& box = *p.im2col;
  const ElemType i32 = ElemType::of(Scalar::I32);
  Value* m = emitPoly(pre, box.rowStart, {});
  m->name = "pixel0";
  std::vector<Value*> coords;
  const int shift = im2colShift(static_cast<int>(box.extents.size()) + 2);
  for (std::size_t a = box.extents.size(); a-- > 0;) {
    Value* extent = emitPoly(pre, box.extents[a], {});
    Value* digit = pre.binary(BinOp::Rem, m, extent, i32);
    coords.insert(coords.begin(), pre.binary(BinOp::Sub, digit, pre.intConst(shift), i32));
    m = pre.binary(BinOp::Div, m, extent, i32);
  }
  coords.insert(coords.begin(), m);
  p.pixel = coords;
}

// The trip index of iteration `it`, and the scalars of the loop's body that the copies'
// coordinates use, recomputed for that iteration (in b).
std::map<const Value*, Value*> Pipeliner::atomsAt(Builder& b, Value* it) {
  Value* trip = it;
  const Value* lb = loop_.operands[0];
  const Value* step = loop_.operands[2];
  const bool lbZero = lb->def && lb->def->kind == OpKind::Constant && lb->def->intValue == 0;
  if (!lbZero) trip = b.binary(BinOp::Sub, trip, const_cast<Value*>(lb), it->type.elem);
  if (!(step->def && step->def->kind == OpKind::Constant && step->def->intValue == 1))
    trip = b.binary(BinOp::Div, trip, const_cast<Value*>(step), it->type.elem);
  std::map<const Value*, Value*> atoms{{trip_, trip}};
  std::set<const Op*> chain;
  const std::vector<const Value*> loopValues = loopAtoms();
  for (const Value* a : loopValues) chainOf(body_, a, iv_, chain, nullptr, loadsAhead_);
  ValueMap map{{iv_, it}};
  for (const auto& op : body_.ops)
    if (chain.count(op.get())) cloneOp(b, *op, map);
  for (const Value* a : loopValues) atoms[a] = map.count(a) ? map.at(a) : const_cast<Value*>(a);
  return atoms;
}

// Coordinates that depend on scalars of the iteration and are not provably in range (box
// starts >= 0, im2col channel starts >= 0 and offsets within 16 bits): checked for every
// iteration by a loop of their own before the pipeline, where a trap leaves no wgmma in
// flight (ptxas would otherwise wait for the batch at each check).
void Pipeliner::checkIterations(Builder& pre) {
  bool any = false;
  for (const Pipe& p : pipes_) {
    if (p.box) any = any || !p.box->iterChecks.empty();
    if (p.im2col) any = true;
  }
  if (!any) return;
  Op* l = pre.create(OpKind::For, {loop_.operands[0], loop_.operands[1], loop_.operands[2]}, {});
  l->cmp = loop_.cmp;
  Block* body = pre.addRegion(l);
  Builder b{k_, body, loop_.loc, iv_->name + "_check", -1};
  Value* iv = b.addArg(body, iv_->type, iv_->name);
  const std::map<const Value*, Value*> atoms = atomsAt(b, iv);
  const ElemType i32 = ElemType::of(Scalar::I32);
  for (const Pipe& p : pipes_) {
    if (p.box)
      for (const Poly& c : p.box->iterChecks)
        b.checkNonNegative(emitPoly(b, c, atoms), p.load->loc, "a TMA box would start below its tensor: the pointers read before it");
    if (!p.im2col) continue;
    if (!nonNegativeConstant(p.im2col->channelStart))
      b.checkNonNegative(emitPoly(b, p.im2col->channelStart, atoms), p.load->loc,
                         "a TMA im2col copy would start below channel 0: the pointers read before the pixel");
    const int shift = im2colShift(static_cast<int>(p.im2col->extents.size()) + 2);
    const std::string why = "a filter offset outside -" + std::to_string(shift) + " .. " + std::to_string(32767 - shift) +
                            " (TMA im2col offsets are 16 bits)";
    const ElemType i1 = ElemType::of(Scalar::Bool);
    for (const Poly& d : p.im2col->offsets) {
      Value* o = b.binary(BinOp::Add, emitPoly(b, d, atoms), b.intConst(shift), i32);
      Value* in = b.binary(BinOp::And, b.binary(BinOp::Ge, o, b.intConst(0), i1), b.binary(BinOp::Le, o, b.intConst(32767), i1), i1);
      Op* a = b.create(OpKind::Assert, {in}, {});
      a->count = 1;
      a->loc = p.load->loc;
      a->note = why;
    }
  }
  b.create(OpKind::Yield, {}, {});
}

// The TMA copies of iteration `it` into slot `index` of every ring, completing on full[index].
Op* Pipeliner::issueTma(Builder& b, Value* it, Value* full, Value* index) {
  Value* bound = loop_.operands[1];
  Value* itc = it->type.elem == bound->type.elem ? it : b.one(OpKind::Convert, {it}, bound->type);
  Value* in = b.binary(BinOp::Lt, itc, bound, ElemType::of(Scalar::Bool));
  Op* guard = b.create(OpKind::If, {in}, {});
  Builder then{k_, b.addRegion(guard), loop_.loc, iv_->name, -1};
  Builder other{k_, b.addRegion(guard), loop_.loc, iv_->name, -1};
  const std::map<const Value*, Value*> atoms = atomsAt(then, it);
  int bytes = 0;
  for (const Pipe& p : pipes_) bytes += static_cast<int>(p.buffer->type.sharedBytes());
  Op* expect = then.create(OpKind::MBarrierExpectTx, {full, index}, {});
  expect->count = bytes;
  const ElemType i32 = ElemType::of(Scalar::I32);
  for (const Pipe& p : pipes_) {
    Value* slotv = slot(then, p.ring, index);
    std::vector<Value*> starts, offsets;
    if (p.box) {
      for (const Poly& s : p.box->starts) starts.push_back(emitPoly(then, s, atoms));
    } else {
      // im2col: the program's first pixel, the channel start, and each tap's offset + shift.
      starts = p.pixel;
      starts.push_back(emitPoly(then, p.im2col->channelStart, atoms));
      const int shift = im2colShift(static_cast<int>(p.im2col->extents.size()) + 2);
      for (const Poly& d : p.im2col->offsets)
        offsets.push_back(then.binary(BinOp::Add, emitPoly(then, d, atoms), then.intConst(shift), i32));
    }
    boxCopies(then, p.buffer->type, p.desc, slotv, full, index, starts, offsets, p.load->loc);
  }
  then.create(OpKind::Yield, {}, {});
  other.create(OpKind::Yield, {}, {});
  return guard;
}

void Pipeliner::runTma() {
  const int S = k_.numStages;
  Builder pre{k_, loop_.parent, loop_.loc, iv_->name, -1};
  pre.setInsertionBefore(loop_);
  allocateRings(pre);
  for (Pipe& p : pipes_) {
    p.desc = descriptor(p);
    if (p.im2col) pixelStart(pre, p);
  }
  Value* full = pre.one(OpKind::LocalAlloc, {}, Type::mbarriers(S));
  full->name = iv_->name + "_full";
  Op* init = pre.create(OpKind::MBarrierInit, {full}, {});
  init->count = 1;  // the issuing thread's arrive.expect_tx
  // Starts that are non-negative in every program the grid launches, but not provably so:
  // bounded by the launcher over the grid where it can (else checked here, a trap).
  for (const Pipe& p : pipes_)
    if (p.box)
      for (const Poly& c : p.box->checks) checkStart(k_, pre, c, p.load->loc, "read", trip_);
  checkIterations(pre);
  const std::vector<std::pair<Value*, Value*>> invariant = invariantOperands();
  pre.setInsertionBefore(loop_);  // ops went in before the loop: its position moved
  Value* lb = loop_.operands[0];
  Value* step = loop_.operands[2];
  for (int s = 0; s + 1 < S; ++s) {
    Value* it = s == 0 ? lb : pre.binary(BinOp::Add, lb, scaled(pre, step, s), lb->type.elem);
    issueTma(pre, it, full, pre.intConst(s));
  }
  for (auto [bar, phase] : invariant) pre.create(OpKind::MBarrierWait, {bar, pre.intConst(0), phase}, {});
  Value* read = carry(pre.intConst(0), "pipe_read");
  Value* write = carry(pre.intConst(S - 1), "pipe_write");
  Value* phase = carry(pre.intConst(0), "pipe_phase");
  Builder top{k_, &body_, loop_.loc, iv_->name, 0};
  top.create(OpKind::MBarrierWait, {full, read, phase}, {});
  Value* ahead = top.binary(BinOp::Add, iv_, scaled(top, step, S - 1), iv_->type.elem);
  ahead->name = iv_->name + "_ahead";
  Op* copies = issueTma(top, ahead, full, write);
  readFromRings(top, read);
  // read and write advance around the ring; the phase flips each time read wraps.
  Op* y = yieldOf(body_);
  Builder end{k_, &body_, y->loc, "pipe", -1};
  end.setInsertionBefore(*y);
  const std::size_t n = y->operands.size();
  Value* wrap = nullptr;
  y->operands[n - 3] = nextSlot(end, read, &wrap);
  y->operands[n - 2] = nextSlot(end, write);
  Value* flipped = end.binary(BinOp::Xor, phase, end.intConst(1), phase->type.elem);
  y->operands[n - 1] = end.create(OpKind::Select, {wrap, flipped, phase}, {phase->type})->result();
  keepWgmmaInFlight({copies});
}

// Loads before the loop whose value only fills a buffer that the loop's wgmma read (attention's
// queries) become TMA boxes too, each completing on an mbarrier of its own, waited for once
// before the loop (parity 0: the buffer is filled once):
//
//   q_full = mbarriers[1]; expect_tx(q_full, bytes); tma boxes → q buffer     where the store was
//   ... the ring's first copies ...
//   wait(q_full, 0)                                                           before the loop
//
// In a warp-specialised kernel the producer issues the copy before its loop's (warpSpecialize),
// so the consumers no longer load, convert and store the tile themselves. In the body of an
// enclosing loop (a persistent tile loop: a copy per tile), the mbarrier is initialised before
// that loop, which carries the parity to wait on, flipped each iteration. Returns the mbarriers
// and the parities to wait on.
std::vector<std::pair<Value*, Value*>> Pipeliner::invariantOperands() {
  std::vector<std::pair<Value*, Value*>> bars;
  Block& outer = *loop_.parent;
  Op* around = outer.parent && outer.parent->kind == OpKind::For ? outer.parent : nullptr;
  std::vector<Op*> loads;
  for (auto& op : outer.ops) {
    if (op.get() == &loop_) break;
    if (op->kind == OpKind::Load && op->operands[0]->type.isTile() && op->result()->type.rank() == 2) loads.push_back(op.get());
  }
  for (Op* ld : loads) {
    const auto& us = users_[ld->result()];  // run's: these loads, stores and buffers are untouched so far
    if (us.size() != 1 || us[0]->kind != OpKind::SharedStore || us[0]->parent != &outer || us[0]->transposed) continue;
    Op* st = us[0];
    Value* buf = st->operands[1];
    if (!buf->def || buf->def->kind != OpKind::LocalAlloc || buf->def->parent != &outer) continue;
    const Type& bt = buf->type;
    if (bt.stages > 1 || !tmaBuffer(bt)) continue;
    // Read by wgmma in this loop or in later ones (causal attention's second key loop reads the
    // queries its first one does): the wait before this loop covers them all.
    const auto& readers = users_[buf];
    if (!std::all_of(readers.begin(), readers.end(), [&](const Op* u) {
          return u == st || (u->kind == OpKind::Wgmma && u->operands[2] != buf && atOrAfterLoop(u));
        }))
      continue;
    const std::optional<StructuredBox> box = structuredBox(k_, loop_, *ld, trip_);
    if (!box) continue;
    const std::pair<int, std::int64_t> unit{box->unitParam, kEqualsOne};
    const bool clash = std::any_of(k_.assumed.begin(), k_.assumed.end(), [&](const auto& a) { return a.first == unit.first && a != unit; });
    if (box->unitParam >= 0 && clash) continue;
    if (box->unitParam >= 0 && std::find(k_.assumed.begin(), k_.assumed.end(), unit) == k_.assumed.end()) k_.assumed.push_back(unit);
    const Value* r = ld->result();
    const std::string name = r->name.empty() ? r->hint : r->name;
    Value* desc = addTensorDescriptor(k_, *box, bt, name + "_desc");
    Builder b{k_, &outer, ld->loc, name, -1};
    b.setInsertionBefore(*st);  // the buffer's allocation may follow the load
    for (const Poly& c : box->checks) checkStart(k_, b, c, ld->loc, "read", trip_);
    Value* bar = nullptr;
    Value* phase = b.intConst(0);
    if (around) {
      Builder a{k_, around->parent, ld->loc, name, -1};
      a.setInsertionBefore(*around);
      bar = a.one(OpKind::LocalAlloc, {}, Type::mbarriers(1));
      a.create(OpKind::MBarrierInit, {bar}, {})->count = 1;
      phase = addCarried(k_, *around, a.intConst(0), name + "_phase");
      Op* y = yieldOf(outer);
      Builder e{k_, &outer, y->loc, name, -1};
      e.setInsertionBefore(*y);
      y->operands.back() = e.binary(BinOp::Xor, phase, e.intConst(1), phase->type.elem);
    } else {
      bar = b.one(OpKind::LocalAlloc, {}, Type::mbarriers(1));
      b.create(OpKind::MBarrierInit, {bar}, {})->count = 1;
    }
    bar->name = name + "_full";
    Value* zero = b.intConst(0);
    b.create(OpKind::MBarrierExpectTx, {bar, zero}, {})->count = static_cast<int>(bt.sharedBytes());
    std::vector<Value*> starts;
    for (const Poly& x : box->starts) starts.push_back(emitPoly(b, x, {}));
    boxCopies(b, bt, desc, buf, bar, zero, starts, {}, ld->loc);
    bars.push_back({bar, phase});
    erase(*st);
    ld->results.clear();
    erase(*ld);
  }
  return bars;
}

// Whether `u` is in the loop or in an op after it in the loop's block.
bool Pipeliner::atOrAfterLoop(const Op* u) const {
  const Block& outer = *loop_.parent;
  for (const Op* a = u; a; a = a->parent ? a->parent->parent : nullptr)
    if (a->parent == &outer) return Builder::indexOf(outer, a) >= Builder::indexOf(outer, &loop_);
  return false;
}
}  // namespace tilecc::ir::pipeliner
