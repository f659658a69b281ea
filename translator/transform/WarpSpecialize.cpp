// Warp specialisation of a TMA-pipelined loop (sm_90a): the copies move out of the loop into
// a producer warp group of their own, and the warps the kernel was written for become the
// consumers, which only wait, compute and release slots:
//
//   rings, full[S] (1 arrival + bytes), empty[S] (one arrival per consumer warp); barrier
//   if (warp < num_warps) {                      consumers: setmaxnreg.inc
//     ... the kernel, where the loop no longer copies:
//     for (iv ...; read, phase) {
//       wait(full[read], phase)
//       ... the body (wgmma from slot read) ...
//       arrive(empty[slot released])            the slot the last finished wgmma batch read
//     }
//     ...
//   } else {                                     producer warp group: setmaxnreg.dec
//     if (first warp) {
//       copies of loop-invariant operands       (their own mbarriers; the consumers wait before their loop)
//       for (iv ...; write, phase) {
//         wait(empty[write], phase ^ 1)          a fresh barrier passes parity 1 at once
//         expect_tx(full[write], bytes); TMA boxes for iteration iv → slot write
//       }
//     }
//   }
//
// The producer runs up to num_stages iterations ahead of the slowest consumer, independently of
// the consumers' instruction stream (no copy issue, no CTA barrier per iteration in the loop);
// with setmaxnreg the consumers get the registers the producer does not need. Where the loop
// keeps one wgmma batch in flight (wait_group 1), a slot is released one iteration late, after
// the wait that completes the batch that read it; otherwise at the end of the iteration.
//
// Consecutive TMA loops at the top level (causal attention written as Triton's tutorial writes
// it: the off-band keys, then the diagonal band) share the first loop's ring: the consumers'
// second loop reads on from the slot and phase the first ended with, and the producer runs one
// loop per consumer loop, back to back, so the band's first boxes arrive while the consumers
// finish the off-band keys. Their boxes must have the same shapes.
//
// TMA loops in the body of a top-level loop (a persistent loop the user wrote, Triton's
// tutorial 09: one output tile per iteration) are split the same way, and both roles run that
// loop: the consumers keep it, the producer runs a copy with only the scalars of its body the
// copies need. The ring is allocated and initialised once, before it; its slot and phase carry
// from one iteration's TMA loops to the next on both sides, so the producer copies the next
// tile's first boxes while the consumers finish this one (as persistent-grid does for a grid):
//
//   consumers: for (tile ...; read, phase) { ...; for (k ...) {...}; release last; epilogue }
//   producer:  for (tile ...; write, phase) { coordinates; for (k ...) {...} }
//
// An operand copied once per iteration of that loop (pipeline-loops: the persistent attention's
// queries, read by every TMA loop of the tile) has one buffer: the consumers wait on its barrier
// with the parity their loop carries, and release it (one arrival per warp on an "operand empty"
// barrier) after their last TMA loop; the producer waits for that before the next copy:
//
//   consumers: for (tile ...; q_phase) { wait(q_full, q_phase); ...loops...; arrive(operand_empty); ... }
//   producer:  for (tile ...; phase) { wait(operand_empty, phase ^ 1); copy q → q_full; ...loops... }
//
// On by default where shared memory already keeps the kernel to one program per SM, or where
// the kernel walks its own tiles (launched with about one program per SM), else per the
// warp_specialize option. Applies to a kernel whose TMA loops are at its top level or in
// such a loop's body (no return anywhere: a consumer leaving early would leave the producer
// waiting), and whose copies' coordinates depend only on the loop's induction variable and on
// scalars computed without memory accesses outside the loops (those stay outside, computed by
// every warp).
// Barriers inside the consumers' part then synchronise the consumer warps alone (a named
// barrier, printed as such).
#include "ir/OpTraits.h"
#include "transform/Passes.h"
#include "transform/TmaPipes.h"
#include "transform/WarpRoles.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace tilecc::ir {

namespace {

// Scalar code any warp may run again: a pure op with scalar results, or an `if` whose regions
// hold only such code (`if (prog_id < rest) tiles_per_sm += 1`).
bool scalarCode(const Op& d) {
  for (const Value* r : d.results)
    if (r->type.isTile()) return false;
  if (d.regions.empty()) return traits(d.kind).pure;
  if (d.kind != OpKind::If) return false;
  for (const auto& r : d.regions)
    for (const auto& o : r->ops)
      if (o->kind != OpKind::Yield && !scalarCode(*o)) return false;
  return true;
}

// The registers per thread each role gets (setmaxnreg: multiples of 8 in [24, 256]), or 0
// where reallocation gains nothing (one consumer warp group already has up to 255).
// setmaxnreg only moves registers within what the program was launched with: ptxas gives each
// of its threads 65536 / threads, rounded down to a multiple of 8 (__launch_bounds__(threads,
// 1)), and an increase the pool cannot cover blocks forever (GPU-found: 16 consumer warps
// launched with 96 each asked for 112 and hung).
constexpr int kProducerWarps = 4;  // one warp group

struct Registers {
  int producer = 0, consumer = 0;
};
Registers registersFor(int consumerWarps, int producerWarps) {
  if (consumerWarps < 8) return {};
  const int threads = (consumerWarps + producerWarps) * 32;
  const int launched = 65536 / threads / 8 * 8;
  const int producer = std::min(40, launched);
  const int pool = launched * threads - producer * producerWarps * 32;
  const int consumer = std::min(256, pool / (consumerWarps * 32) / 8 * 8);
  if (consumer <= launched) return {};
  return {producer, consumer};
}

class Specializer {
 public:
  explicit Specializer(Kernel& k) : k_(k), top_(*k.body) {}

  // Finds the TMA loops and what the producer needs; false (why() says why) where the kernel
  // does not have that form. Changes nothing.
  bool find() {
    if (!findTmaPipes(k_, found_)) return false;
    if (found_.outer) scope_ = found_.outer->regions[0].get();
    if (!sameRings(found_.pipes)) return miss("its TMA loops copy boxes of different shapes (one ring cannot serve them in turn)");
    if (found_.outer && !ringStartsConstant())
      return miss("its TMA loop's ring does not start from constant positions (it cannot carry over the loop around it)");
    if (!outsideClosure())
      return miss(carried_ ? "its TMA copies' coordinates depend on a value the loop around its TMA loop carries, which is not "
                             "scalar arithmetic of values before that loop"
                           : "the copies' coordinates need more than scalar arithmetic before the loop");
    return true;
  }
  const std::string& why() const { return found_.why; }
  bool aroundLoop() const { return found_.outer != nullptr; }

  // The buffers that share the first loop's once split (the later loops' rings and barriers).
  std::set<const Value*> merged() const {
    std::set<const Value*> m;
    for (std::size_t i = 1; i < found_.pipes.size(); ++i) {
      m.insert(found_.pipes[i].full());
      m.insert(found_.pipes[i].rings.begin(), found_.pipes[i].rings.end());
    }
    return m;
  }

  void split();

 private:
  Kernel& k_;
  Block& top_;
  Block* scope_ = &top_;  // the block holding the TMA loops: the top level, or found_.outer's body
  TmaPipes found_;
  std::set<const Op*> outside_;  // top-level ops the producer needs: computed by every warp
  std::set<const Op*> inner_;    // ops of found_.outer's body the producer needs: cloned into its loop
  std::set<std::size_t> carries_;  // found_.outer's carried values the producer needs (carried by its loop too)
  bool carried_ = false;           // ... one of which it cannot compute

  bool miss(const char* why) {
    found_.why = why;
    return false;
  }

  // The ring slot and phase the first loop starts from (pipeline-loops: constants).
  bool ringStartsConstant() const {
    const TmaPipe& p = found_.pipes[0];
    for (const Value* arg : {p.wait->operands[1], p.wait->operands[2]}) {
      const Value* init = p.loop->operands[carriedIndex(*p.loop, arg) + 3];
      if (!init->def || init->def->kind != OpKind::Constant) return false;
    }
    return true;
  }

  // The top-level ops the producer reads (transitively): allocations and pure scalar
  // arithmetic, which stay outside the roles. In the body of a loop around the TMA loops, the
  // same (allocations move out of it), and of the values that loop carries, those whose first
  // value and next one these give (Triton's persistent attention: `tile_idx += num_progs`; the
  // producer's loop carries them too). False if it needs anything else.
  bool outsideClosure() {
    bool ok = true;
    std::function<void(const Value*)> need = [&](const Value* v) {
      const Op* d = v->def;
      if (!d) {
        if (!found_.outer || v->owner != scope_ || v == scope_->args[0]) return;
        const std::size_t c = carriedIndex(*found_.outer, v);  // a value the loop carries
        if (!carries_.insert(c).second) return;
        const bool before = ok;
        need(found_.outer->operands[c + 3]);
        need(yieldOf(*scope_)->operands[c]);
        if (before && !ok) carried_ = true;
        return;
      }
      // What `d` reads: its operands, and those of the ops in its regions (a scalar `if`).
      auto reads = [&](const Op& o) {
        for (const Value* x : o.operands) need(x);
        for (const auto& r : o.regions) walk(static_cast<const Block&>(*r), [&](const Op& in) {
          for (const Value* x : in.operands) need(x);  // values of the region itself are skipped
        });
      };
      // Of the loop's body (cloned into the producer's loop; its allocations move out), or of the top level.
      const bool inner = found_.outer && d->parent == scope_;
      if (!inner && d->parent != &top_) return;
      std::set<const Op*>& needed = inner ? inner_ : outside_;
      if (needed.count(d) || (inner && d->kind == OpKind::LocalAlloc)) return;
      if (d->kind != OpKind::LocalAlloc && !scalarCode(*d)) {
        ok = false;
        return;
      }
      needed.insert(d);
      reads(*d);
    };
    if (found_.outer)
      for (int i = 0; i < 3; ++i) need(found_.outer->operands[static_cast<std::size_t>(i)]);
    for (const TmaPipe& p : found_.pipes) {
      for (int i = 0; i < 3; ++i) need(p.loop->operands[static_cast<std::size_t>(i)]);
      for (const Op* o : p.chain)
        for (const Value* v : o->operands) need(v);
      walk(static_cast<const Block&>(*p.copies->regions[0]), [&](const Op& o) {
        for (const Value* v : o.operands) need(v);
      });
    }
    for (const Op* o : found_.invariant)
      for (const Value* v : o->operands) need(v);
    // Every allocation and mbarrier initialisation stays outside too.
    for (const auto& op : top_.ops)
      if (op->kind == OpKind::LocalAlloc || op->kind == OpKind::MBarrierInit) outside_.insert(op.get());
    return ok;
  }

  Op* producerLoop(Builder& pb, const TmaPipe& p, Value* empty, Value* write0, Value* phase0, const ValueMap& base);
  void release(const TmaPipe& p, Value* empty);
  void hoistAllocations();
  void carryRing();
};

// The producer's loop for pipe `p`: waits for a free slot and copies iteration by iteration,
// from slot `write0` in phase `phase0`; results: the next slot and phase. Values in `base` are
// replaced (the producer's copies of an enclosing loop's scalars).
Op* Specializer::producerLoop(Builder& pb, const TmaPipe& p, Value* empty, Value* write0, Value* phase0, const ValueMap& base) {
  const int S = k_.numStages;
  Block& body = *p.loop->regions[0];
  Value* iv = body.args[0];
  const Loc loc = p.loop->loc;
  const Type i32 = Type::scalar(ElemType::of(Scalar::I32));
  auto mapped = [&](Value* v) {
    const auto it = base.find(v);
    return it == base.end() ? v : it->second;
  };
  Op* ploop = pb.create(OpKind::For, {mapped(p.loop->operands[0]), mapped(p.loop->operands[1]), mapped(p.loop->operands[2]), write0, phase0},
                        {i32, i32});
  ploop->cmp = p.loop->cmp;
  Block* pbody = pb.addRegion(ploop);
  Builder lb{k_, pbody, loc, iv->name, -1};
  Value* piv = lb.addArg(pbody, iv->type, iv->name);
  Value* write = lb.addArg(pbody, i32, "load_slot");
  Value* phase = lb.addArg(pbody, i32, "load_phase");
  ploop->results[0]->name = "load_slot";
  ploop->results[1]->name = "load_phase";
  Value* zero = lb.intConst(0);
  Value* one32 = lb.intConst(1);
  lb.create(OpKind::MBarrierWait, {empty, write, lb.binary(BinOp::Xor, phase, one32, phase->type.elem)}, {});
  cloneCopies(lb, p, piv, write, base);  // the producer copies for its own iteration
  Value* last = lb.binary(BinOp::Eq, write, lb.intConst(S - 1), ElemType::of(Scalar::Bool));
  Value* next = lb.create(OpKind::Select, {last, zero, lb.binary(BinOp::Add, write, one32, write->type.elem)}, {write->type})->result();
  Value* flipped = lb.binary(BinOp::Xor, phase, one32, phase->type.elem);
  Value* nphase = lb.create(OpKind::Select, {last, flipped, phase}, {phase->type})->result();
  lb.create(OpKind::Yield, {next, nphase}, {});
  return ploop;
}

void Specializer::split() {
  const int W = k_.numWarps;
  std::vector<TmaPipe>& pipes = found_.pipes;
  const Loc loc = pipes[0].loop->loc;
  const std::string name = pipes[0].loop->regions[0]->args[0]->name;
  if (found_.outer) hoistAllocations();
  shareFirstRing(k_, pipes, false);

  // The rest of the kernel, in order: outside ops stay, prologue copies go, others move.
  std::set<const Op*> prologue;
  for (const TmaPipe& p : pipes) prologue.insert(p.prologue.begin(), p.prologue.end());
  if (found_.outer) {
    auto& ops = scope_->ops;
    ops.erase(std::remove_if(ops.begin(), ops.end(), [&](const auto& op) { return prologue.count(op.get()) != 0; }), ops.end());
  }
  std::vector<std::unique_ptr<Op>> kept, consumer, invariant;
  for (auto& op : top_.ops) {
    if (prologue.count(op.get())) continue;
    const bool moved = std::find(found_.invariant.begin(), found_.invariant.end(), op.get()) != found_.invariant.end();
    (moved ? invariant : outside_.count(op.get()) ? kept : consumer).push_back(std::move(op));
  }
  top_.ops = std::move(kept);

  Builder b{k_, &top_, loc, name, -1};
  Value* empty = b.one(OpKind::LocalAlloc, {}, Type::mbarriers(k_.numStages));
  empty->name = name + "_empty";
  Op* init = b.create(OpKind::MBarrierInit, {empty}, {});
  init->count = W;  // one arrival per consumer warp
  // Loop-invariant operands copied per iteration of the loop around (Triton's persistent
  // attention's queries): every consumer warp releases their buffer after the last TMA loop,
  // whose wgmma were its last readers; the producer waits for that before the next copy.
  Value* invariantEmpty = nullptr;
  if (found_.outer && !found_.invariant.empty()) {
    invariantEmpty = b.one(OpKind::LocalAlloc, {}, Type::mbarriers(1));
    invariantEmpty->name = name + "_operand_empty";
    b.create(OpKind::MBarrierInit, {invariantEmpty}, {})->count = W;
  }
  Op* bar = b.create(OpKind::Barrier, {}, {});
  bar->note = "the mbarriers are initialised before either role waits on them";

  Op* roles = b.create(OpKind::WarpGroup, {}, {});
  roles->firstWarp = 0;
  roles->numWarps = W;
  Block* cons = b.addRegion(roles);
  Block* prod = b.addRegion(roles);
  const Registers regs = registersFor(W, kProducerWarps);

  // ---- consumers ----
  Builder c{k_, cons, loc, name, -1};
  if (regs.consumer) {
    Op* r = c.create(OpKind::SetMaxNReg, {}, {});
    r->regs = regs.consumer;
    r->increase = true;
  }
  for (auto& op : consumer) {
    op->parent = cons;
    cons->ops.push_back(std::move(op));
  }
  for (std::size_t i = 0; i < pipes.size(); ++i) {
    release(pipes[i], empty);
    // The next loop's producer (or the next outer iteration's) waits for this loop's last slot.
    if (i + 1 < pipes.size() || found_.outer) releaseLastSlot(k_, *pipes[i].loop);
  }
  if (found_.outer) carryRing();
  if (invariantEmpty) {
    Builder r{k_, scope_, loc, name, Builder::indexOf(*scope_, pipes.back().loop) + 1};
    r.create(OpKind::MBarrierArrive, {invariantEmpty, r.intConst(0)}, {});
  }

  // ---- producer ----
  Builder p{k_, prod, loc, name, -1};
  if (regs.producer) {
    Op* r = p.create(OpKind::SetMaxNReg, {}, {});
    r->regs = regs.producer;
  }
  Op* one = p.create(OpKind::WarpGroup, {}, {});
  one->firstWarp = W;
  one->numWarps = 1;
  Builder pb{k_, p.addRegion(one), loc, name, -1};
  for (auto& op : invariant) {
    op->parent = pb.block;
    pb.block->ops.push_back(std::move(op));
  }
  Value* write = pb.intConst(0);
  Value* phase = write;
  Value* invariantNext = nullptr;  // the producer's parity for the next iteration's invariant copies
  ValueMap map;  // the enclosing loop's values → the producer's
  std::optional<Builder> ob;
  if (found_.outer) {
    // The producer runs the loop around the TMA loops too, with the scalars their bounds and
    // copies need; its ring position carries over from one iteration to the next.
    const Op& o = *found_.outer;
    const Type i32 = Type::scalar(ElemType::of(Scalar::I32));
    std::vector<Value*> operands{o.operands[0], o.operands[1], o.operands[2], write, phase};
    std::vector<Type> types{i32, i32};
    for (std::size_t c : carries_) {
      operands.push_back(o.operands[c + 3]);
      types.push_back(o.results[c]->type);
    }
    if (invariantEmpty) {  // the parity of the invariant operands' buffer, flipped each iteration
      operands.push_back(pb.intConst(0));
      types.push_back(i32);
    }
    Op* outer = pb.create(OpKind::For, operands, types);
    outer->cmp = o.cmp;
    outer->loc = o.loc;
    Block* body = pb.addRegion(outer);
    const Value* iv = scope_->args[0];
    ob.emplace(Builder{k_, body, o.loc, iv->name, -1});
    map[iv] = ob->addArg(body, iv->type, iv->name);
    write = ob->addArg(body, i32, "load_slot");
    phase = ob->addArg(body, i32, "load_phase");
    outer->results[0]->name = "load_slot";
    outer->results[1]->name = "load_phase";
    std::size_t r = 2;
    for (std::size_t c : carries_) {
      const Value* arg = scope_->args[c + 1];
      map[arg] = ob->addArg(body, arg->type, arg->name);
      outer->results[r++]->name = o.results[c]->name;
    }
    Value* operandPhase = invariantEmpty ? ob->addArg(body, i32, "operand_phase") : nullptr;
    for (const auto& op : scope_->ops)
      if (inner_.count(op.get())) cloneOp(*ob, *op, map);
    if (invariantEmpty) {
      // A fresh barrier passes parity 1 at once: the first iteration copies without waiting.
      invariantNext = ob->binary(BinOp::Xor, operandPhase, ob->intConst(1), operandPhase->type.elem);
      ob->create(OpKind::MBarrierWait, {invariantEmpty, ob->intConst(0), invariantNext}, {});
      for (const Op* op : found_.invariant) cloneOp(*ob, *op, map);
    }
  }
  for (const TmaPipe& pipe : pipes) {
    Op* l = producerLoop(ob ? *ob : pb, pipe, empty, write, phase, map);
    write = l->results[0];
    phase = l->results[1];
  }
  if (ob) {
    std::vector<Value*> next{write, phase};
    for (std::size_t c : carries_) {
      Value* v = yieldOf(*scope_)->operands[c];  // the producer's copy, or a value from before the loop
      next.push_back(map.count(v) ? map.at(v) : v);
    }
    if (invariantNext) next.push_back(invariantNext);
    ob->create(OpKind::Yield, next, {});
  }

  // The consumers' loops no longer copy (their slot counters go with canonicalize).
  for (const TmaPipe& pipe : pipes) erase(*pipe.copies);
  if (found_.outer)
    for (Op* op : found_.invariant) erase(*op);
  k_.producerWarps = kProducerWarps;
}

// The ring's allocations and barrier initialisation, which pipeline-loops placed in the body of
// the loop around the TMA loops (one ring per iteration), move before it: one ring for all
// iterations, its position carried over (carryRing).
void Specializer::hoistAllocations() {
  Op& outer = *found_.outer;
  auto& ops = scope_->ops;
  std::vector<std::unique_ptr<Op>> moved;
  for (auto& op : ops)
    if (op->kind == OpKind::LocalAlloc || op->kind == OpKind::MBarrierInit) moved.push_back(std::move(op));
  ops.erase(std::remove(ops.begin(), ops.end(), nullptr), ops.end());
  auto at = top_.ops.begin() + Builder::indexOf(top_, &outer);
  for (auto& op : moved) {
    op->parent = &top_;
    outside_.insert(op.get());
    at = top_.ops.insert(at, std::move(op)) + 1;
  }
}

// The consumers' loop around the TMA loops carries the ring position: the first TMA loop reads
// on from where the previous iteration's last one ended.
void Specializer::carryRing() {
  Op& outer = *found_.outer;
  const TmaPipe& first = found_.pipes.front();
  const TmaPipe& last = found_.pipes.back();
  Builder b{k_, outer.parent, outer.loc, "ring", Builder::indexOf(*outer.parent, &outer)};
  Op* y = yieldOf(*scope_);
  const char* names[] = {"ring_slot", "ring_phase"};
  for (int i = 0; i < 2; ++i) {
    const std::size_t j = carriedIndex(*first.loop, first.wait->operands[static_cast<std::size_t>(i + 1)]);
    const Value* init = first.loop->operands[j + 3];  // a constant (ringStartsConstant)
    first.loop->operands[j + 3] = addCarried(k_, outer, b.intConst(init->def->intValue, init->type.elem), names[i]);
    y->operands.back() = last.loop->results[carriedIndex(*last.loop, last.wait->operands[static_cast<std::size_t>(i + 1)])];
  }
}

// Each consumer warp releases a slot once no wgmma of its group reads it any more.
void Specializer::release(const TmaPipe& p, Value* empty) {
  Block& body = *p.loop->regions[0];
  Value* read = p.wait->operands[1];
  Op* inFlight = nullptr;  // wait_group 1 of a batch kept in flight (pipelineLoops)
  for (auto& op : body.ops)
    if (op->kind == OpKind::WgmmaWait && op->count == 1 && op->results.empty()) inFlight = op.get();
  if (!inFlight) {
    Builder b{k_, &body, p.loop->loc, "release", -1};
    b.setInsertionBefore(*yieldOf(body));
    b.create(OpKind::MBarrierArrive, {empty, read}, {});
    return;
  }
  // The batch completed by this wait read the previous iteration's slot; the first iteration
  // has none.
  Builder b{k_, &body, p.loop->loc, "release", -1};
  b.setInsertionAfter(*inFlight);
  Value* notFirst = b.binary(BinOp::Ne, body.args[0], p.loop->operands[0], ElemType::of(Scalar::Bool));
  Op* guard = b.create(OpKind::If, {notFirst}, {});
  Builder then{k_, b.addRegion(guard), p.loop->loc, "release", -1};
  Builder other{k_, b.addRegion(guard), p.loop->loc, "release", -1};
  then.create(OpKind::MBarrierArrive, {empty, previousSlot(then, read, k_.numStages)}, {});
  then.create(OpKind::Yield, {}, {});
  other.create(OpKind::Yield, {}, {});
}

}  // namespace

bool warpSpecialize(Kernel& k, const Target& t) {
  if (!t.tma || k.warpSpecialize == 0) return false;
  if (k.tensorMaps.empty()) {
    k.notSpecialized = "no dot operand is copied with TMA (pointers and mask are not a box the launcher can describe)";
    return false;
  }
  if (k.numWarps % 4 != 0 || k.numWarps + 4 > 32) {
    k.notSpecialized = "num_warps = " + std::to_string(k.numWarps) + " is not a multiple of 4 up to 28";
    return false;
  }
  Specializer s(k);
  const bool found = s.find();
  if (k.warpSpecialize < 0) {
    if (k.minPrograms > 1) {
      k.notSpecialized = "min_programs_per_sm = " + std::to_string(k.minPrograms) + " asks for more than the one program per SM it allows";
      return false;
    }
    // A kernel that walks its own tiles (a persistent loop the user wrote) is launched with
    // about one program per SM: it has its SM to itself whatever its shared memory allows.
    if (found && s.aroundLoop()) {
      s.split();
      return true;
    }
    // A specialised program has its SM to itself (setmaxnreg needs one program per SM): by
    // default only where shared memory allows no second one anyway (measured: the 128x128
    // GEMM, two programs per SM, lost 6-10%; the 128x256 one, alone on its SM, gained 0-6%).
    // Buffers used only after the kernel's last top-level loop (an epilogue staged through
    // shared memory) share bytes with the rings, dead by then (allocate-shared); the rings of
    // consecutive TMA loops become one.
    const auto& ops = k.body->ops;
    std::size_t lastLoop = 0;
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (ops[i]->kind == OpKind::For) lastLoop = i;
    std::map<const Value*, bool> late;  // buffer → used only after the last loop
    for (std::size_t i = 0; i < ops.size(); ++i) {
      auto visit = [&](const Op& o) {
        for (const Value* v : o.operands)
          if (v->def && v->def->kind == OpKind::LocalAlloc) {
            auto [it, fresh] = late.emplace(v, i > lastLoop);
            if (!fresh) it->second = it->second && i > lastLoop;
          }
      };
      visit(*ops[i]);
      for (const auto& r : ops[i]->regions) walk(static_cast<const Block&>(*r), visit);
    }
    const std::set<const Value*> merged = found ? s.merged() : std::set<const Value*>{};
    std::int64_t bytes = 0, after = 0;
    walk(static_cast<const Block&>(*k.body), [&](const Op& o) {
      if (o.kind != OpKind::LocalAlloc || merged.count(o.result())) return;
      const auto it = late.find(o.result());
      (it != late.end() && it->second ? after : bytes) += o.result()->type.sharedBytes();
    });
    bytes = std::max(bytes, after);
    const std::int64_t reserved = 1024;  // per program, by the hardware
    if (2 * (bytes + reserved) <= t.sharedLimit + reserved) {
      k.notSpecialized = "two programs fit on an SM (warp_specialize = true asks for it all the same)";
      return false;
    }
  }
  if (!found) {
    k.notSpecialized = s.why();
    return false;
  }
  s.split();
  return true;
}

}  // namespace tilecc::ir
