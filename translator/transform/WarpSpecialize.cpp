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
// On by default where shared memory already keeps the kernel to one program per SM, else per
// the warp_specialize option. Applies to a kernel whose one TMA loop is at its top level (no return anywhere: a consumer
// leaving early would leave the producer waiting), and whose copies' coordinates depend only on
// the loop's induction variable and on scalars computed before the loop without memory
// accesses (those stay outside, computed by every warp). Barriers inside the consumers' part
// then synchronise the consumer warps alone (a named barrier, printed as such).
#include "ir/Clone.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace tilecc::ir {

namespace {

bool containsKind(const Op& o, OpKind kind) {
  bool found = o.kind == kind;
  for (const auto& r : o.regions)
    walk(static_cast<const Block&>(*r), [&](const Op& x) { found = found || x.kind == kind; });
  return found;
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

  bool run() {
    if (!find()) return false;
    if (!outsideClosure()) return miss("the copies' coordinates need more than scalar arithmetic before the loop");
    split();
    return true;
  }

 private:
  Kernel& k_;
  Block& top_;
  Op* loop_ = nullptr;
  Op* wait_ = nullptr;    // wait(full[read], phase) at the top of the loop body
  Op* copies_ = nullptr;  // if (ahead in range) { expect_tx; tma boxes }
  std::vector<Op*> prologue_;       // the same before the loop, for its first iterations
  std::vector<Op*> invariant_;      // copies of loop-invariant operands before the loop (moved)
  std::set<const Op*> outside_;     // top-level ops the producer needs: computed by every warp
  std::vector<const Op*> chain_;    // body ops the copies read, in order
  Value* slot_ = nullptr;           // the ring slot the loop's copies write (carried)
  const Value* ahead_ = nullptr;    // the iteration they copy for (num_stages − 1 ahead)

  bool miss(const char* why) {
    k_.notSpecialized = why;
    return false;
  }

  bool find() {
    bool returns = false;
    walk(top_, [&](const Op& o) { returns = returns || o.kind == OpKind::Return; });
    if (returns) return miss("the kernel has a return (a consumer leaving early would leave the producer waiting)");
    for (auto& op : top_.ops) {
      // A loop-invariant operand's copy (pipelineLoops): the producer issues it before its loop.
      if (!loop_ && (op->kind == OpKind::TmaLoad || op->kind == OpKind::MBarrierExpectTx)) {
        invariant_.push_back(op.get());
        continue;
      }
      if (!containsKind(*op, OpKind::TmaLoad)) continue;
      if (op->kind == OpKind::If && !loop_) {
        prologue_.push_back(op.get());
        continue;
      }
      if (op->kind != OpKind::For || loop_)
        return miss("its TMA copies are not in one loop at the kernel's top level (two loops in a row, such as causal attention's "
                    "off-band keys and diagonal band, get it as one loop with a mask)");
      loop_ = op.get();
    }
    if (!loop_) return miss("no loop copies with TMA");
    Block& body = *loop_->regions[0];
    // A pipelined TMA loop starts with its wait: a top-level loop without one holds the TMA
    // loop inside it (a persistent loop written out, Triton's tutorial 09).
    if (body.ops.empty() || body.ops[0]->kind != OpKind::MBarrierWait)
      return miss("its TMA loop is inside another loop (written for one output tile, a GEMM gets a persistent grid from the translator)");
    wait_ = body.ops[0].get();
    for (auto& op : body.ops) {
      if (!containsKind(*op, OpKind::TmaLoad)) continue;
      if (op->kind != OpKind::If || copies_) return miss("its TMA copies are not issued in one place of the loop");
      copies_ = op.get();
    }
    if (!copies_) return miss("no loop copies with TMA");
    slot_ = copySlot();
    // The iteration the copies are for: the guard compares it with the loop's bound.
    const Op* in = copies_->operands[0]->def;
    if (!slot_ || !in || in->kind != OpKind::Binary || in->binop != BinOp::Lt || in->operands[1] != loop_->operands[1])
      return miss("its TMA copies are not the pipelined loop's own (slot and guard)");
    ahead_ = in->operands[0];
    if (ahead_->def && ahead_->def->kind == OpKind::Convert) ahead_ = ahead_->def->operands[0];
    // The copies read, from the body, only that iteration, the slot and pure scalar ops of its
    // top level.
    std::set<const Op*> seen;
    bool ok = true;
    std::function<void(const Value*)> need = [&](const Value* v) {
      if (v == ahead_) return;
      const Op* d = v->def;
      if (!d) {
        if (v->owner == &body && v != slot_) ok = false;
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
    walk(static_cast<const Block&>(*copies_->regions[0]), [&](const Op& o) {
      for (const Value* v : o.operands) need(v);
    });
    for (const auto& op : body.ops)
      if (seen.count(op.get())) chain_.push_back(op.get());
    return ok;
  }

  // The ring slot the loop's copies write (a carried value of the loop).
  Value* copySlot() const {
    Value* slot = nullptr;
    walk(static_cast<const Block&>(*copies_->regions[0]), [&](const Op& o) {
      if (o.kind == OpKind::TmaLoad) slot = o.operands[3];
    });
    return slot;
  }

  // The top-level ops before the loop that the producer reads (transitively): allocations and
  // pure scalar arithmetic, which stay outside the roles. False if it needs anything else.
  bool outsideClosure() {
    bool ok = true;
    std::function<void(const Value*)> need = [&](const Value* v) {
      const Op* d = v->def;
      if (!d || d->parent != &top_ || outside_.count(d)) return;
      const bool scalar = !v->type.isTile() && traits(d->kind).pure && d->regions.empty();
      if (d->kind != OpKind::LocalAlloc && !scalar) {
        ok = false;
        return;
      }
      outside_.insert(d);
      for (const Value* x : d->operands) need(x);
    };
    for (int i = 0; i < 3; ++i) need(loop_->operands[static_cast<std::size_t>(i)]);
    for (const Op* o : chain_)
      for (const Value* v : o->operands) need(v);
    for (const Op* o : invariant_)
      for (const Value* v : o->operands) need(v);
    walk(static_cast<const Block&>(*copies_->regions[0]), [&](const Op& o) {
      for (const Value* v : o.operands) need(v);
    });
    // Every allocation and mbarrier initialisation stays outside too.
    for (const auto& op : top_.ops)
      if (op->kind == OpKind::LocalAlloc || op->kind == OpKind::MBarrierInit) outside_.insert(op.get());
    return ok;
  }

  void split() {
    const int S = k_.numStages;
    const int W = k_.numWarps;
    Value* full = wait_->operands[0];
    Block& body = *loop_->regions[0];
    Value* iv = body.args[0];
    const Loc loc = loop_->loc;

    // The rest of the kernel, in order: outside ops stay, prologue copies go, others move.
    std::vector<std::unique_ptr<Op>> kept, consumer, invariant;
    for (auto& op : top_.ops) {
      if (std::find(prologue_.begin(), prologue_.end(), op.get()) != prologue_.end()) continue;
      const bool moved = std::find(invariant_.begin(), invariant_.end(), op.get()) != invariant_.end();
      (moved ? invariant : outside_.count(op.get()) ? kept : consumer).push_back(std::move(op));
    }
    top_.ops = std::move(kept);

    Builder b{k_, &top_, loc, iv->name, -1};
    Value* empty = b.one(OpKind::LocalAlloc, {}, Type::mbarriers(S));
    empty->name = iv->name + "_empty";
    Op* init = b.create(OpKind::MBarrierInit, {empty}, {});
    init->count = W;  // one arrival per consumer warp
    Op* bar = b.create(OpKind::Barrier, {}, {});
    bar->note = "the mbarriers are initialised before either role waits on them";

    Op* roles = b.create(OpKind::WarpGroup, {}, {});
    roles->firstWarp = 0;
    roles->numWarps = W;
    Block* cons = b.addRegion(roles);
    Block* prod = b.addRegion(roles);
    const Registers regs = registersFor(W, kProducerWarps);

    // ---- consumers ----
    Builder c{k_, cons, loc, iv->name, -1};
    if (regs.consumer) {
      Op* r = c.create(OpKind::SetMaxNReg, {}, {});
      r->regs = regs.consumer;
      r->increase = true;
    }
    for (auto& op : consumer) {
      op->parent = cons;
      cons->ops.push_back(std::move(op));
    }
    release(empty);

    // ---- producer ----
    Builder p{k_, prod, loc, iv->name, -1};
    if (regs.producer) {
      Op* r = p.create(OpKind::SetMaxNReg, {}, {});
      r->regs = regs.producer;
    }
    Op* one = p.create(OpKind::WarpGroup, {}, {});
    one->firstWarp = W;
    one->numWarps = 1;
    Builder pb{k_, p.addRegion(one), loc, iv->name, -1};
    for (auto& op : invariant) {
      op->parent = pb.block;
      pb.block->ops.push_back(std::move(op));
    }
    Value* zero = pb.intConst(0);
    Op* ploop = pb.create(OpKind::For, {loop_->operands[0], loop_->operands[1], loop_->operands[2], zero, zero},
                          {Type::scalar(ElemType::of(Scalar::I32)), Type::scalar(ElemType::of(Scalar::I32))});
    ploop->cmp = loop_->cmp;
    Block* pbody = pb.addRegion(ploop);
    Builder lb{k_, pbody, loc, iv->name, -1};
    Value* piv = lb.addArg(pbody, iv->type, iv->name);
    Value* write = lb.addArg(pbody, Type::scalar(ElemType::of(Scalar::I32)), "load_slot");
    Value* phase = lb.addArg(pbody, Type::scalar(ElemType::of(Scalar::I32)), "load_phase");
    ploop->results[0]->name = "load_slot";
    ploop->results[1]->name = "load_phase";
    Value* one32 = lb.intConst(1);
    lb.create(OpKind::MBarrierWait, {empty, write, lb.binary(BinOp::Xor, phase, one32, phase->type.elem)}, {});
    // The producer copies for its own iteration: `ahead` is its induction variable.
    ValueMap map{{iv, piv}, {ahead_, piv}, {slot_, write}};
    for (const Op* o : chain_) cloneOp(lb, *o, map);
    for (const auto& o : copies_->regions[0]->ops)
      if (o->kind != OpKind::Yield) cloneOp(lb, *o, map);
    Value* last = lb.binary(BinOp::Eq, write, lb.intConst(S - 1), ElemType::of(Scalar::Bool));
    Value* next = lb.create(OpKind::Select, {last, zero, lb.binary(BinOp::Add, write, one32, write->type.elem)}, {write->type})->result();
    Value* flipped = lb.binary(BinOp::Xor, phase, one32, phase->type.elem);
    Value* nphase = lb.create(OpKind::Select, {last, flipped, phase}, {phase->type})->result();
    lb.create(OpKind::Yield, {next, nphase}, {});

    // The consumers' loop no longer copies (its slot counter goes with canonicalize).
    erase(*copies_);
    k_.producerWarps = kProducerWarps;
  }

  // Each consumer warp releases a slot once no wgmma of its group reads it any more.
  void release(Value* empty) {
    Block& body = *loop_->regions[0];
    Value* read = wait_->operands[1];
    Op* inFlight = nullptr;  // wait_group 1 of a batch kept in flight (pipelineLoops)
    for (auto& op : body.ops)
      if (op->kind == OpKind::WgmmaWait && op->count == 1 && op->results.empty()) inFlight = op.get();
    if (!inFlight) {
      Builder b{k_, &body, loop_->loc, "release", -1};
      b.setInsertionBefore(*yieldOf(body));
      b.create(OpKind::MBarrierArrive, {empty, read}, {});
      return;
    }
    // The batch completed by this wait read the previous iteration's slot; the first iteration
    // has none.
    Builder b{k_, &body, loop_->loc, "release", -1};
    b.setInsertionAfter(*inFlight);
    Value* notFirst = b.binary(BinOp::Ne, body.args[0], loop_->operands[0], ElemType::of(Scalar::Bool));
    Op* guard = b.create(OpKind::If, {notFirst}, {});
    Builder then{k_, b.addRegion(guard), loop_->loc, "release", -1};
    Builder other{k_, b.addRegion(guard), loop_->loc, "release", -1};
    Value* first = then.binary(BinOp::Eq, read, then.intConst(0), ElemType::of(Scalar::Bool));
    Value* before = then.binary(BinOp::Sub, read, then.intConst(1), read->type.elem);
    Value* prev = then.create(OpKind::Select, {first, then.intConst(k_.numStages - 1), before}, {read->type})->result();
    then.create(OpKind::MBarrierArrive, {empty, prev}, {});
    then.create(OpKind::Yield, {}, {});
    other.create(OpKind::Yield, {}, {});
  }
};

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
  if (k.warpSpecialize < 0) {
    if (k.minPrograms > 1) {
      k.notSpecialized = "min_programs_per_sm = " + std::to_string(k.minPrograms) + " asks for more than the one program per SM it allows";
      return false;
    }
    // A specialised program has its SM to itself (setmaxnreg needs one program per SM): by
    // default only where shared memory allows no second one anyway (measured: the 128x128
    // GEMM, two programs per SM, lost 6-10%; the 128x256 one, alone on its SM, gained 0-6%).
    // Buffers used only after the kernel's last top-level loop (an epilogue staged through
    // shared memory) share bytes with the rings, dead by then (allocate-shared).
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
    std::int64_t bytes = 0, after = 0;
    walk(static_cast<const Block&>(*k.body), [&](const Op& o) {
      if (o.kind != OpKind::LocalAlloc) return;
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
  return Specializer(k).run();
}

}  // namespace tilecc::ir
