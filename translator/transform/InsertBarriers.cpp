// Barriers from a hazard analysis over shared memory (after allocateShared), in the spirit of
// Triton's membar analysis, with per-warp footprints (analysis/SharedAccess.h):
//
// - Accesses since the last CTA barrier are pending. An access that conflicts with a pending
//   one (same bytes, at least one a write) by another warp needs a CTA barrier before it; one
//   that conflicts only with the same warp's accesses needs a warp barrier; none otherwise.
// - wgmma and TMA stores read shared memory through the async proxy: ordinary writes to their
//   buffers are followed by a proxy fence in the writing threads, before any barrier.
// - Async copies (cp.async, TMA) write when they land: they are checked against pending
//   accesses when issued (the bytes must be free) and become pending writes at the wait that
//   covers them (the pipeliner guarantees no one reads a slot before that wait). A TMA store
//   reads its buffer asynchronously too: its read counts (is pending) only from the issuing
//   thread's tma_store_wait on, so the barrier that orders a rewrite of the buffer comes after
//   that wait (a barrier before it would not order the bulk copy's read).
// - A TMA copy writes through the async proxy too: ordinary writes to its bytes made before it
//   (a buffer that shares them by liveness) are ordered before it only by a proxy fence in the
//   writing threads, then a CTA barrier. Such writes are tracked until a fence: a loop or an `if`
//   whose copies meet one gets the fence before it (once, not in every iteration; the copy's
//   barrier follows from the conflict with the pending writes), a copy elsewhere right before
//   its barrier (every thread fences all its writes).
// - Loops: the state at the top of the body joins the state before the loop with the state at
//   the end of the body, to a fixed point. A barrier needed only because of accesses made
//   before the loop goes before the loop instead of into every iteration.
// - if/else: both branches from the same state, joined after.
#include "analysis/SharedAccess.h"
#include "ir/Builder.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <algorithm>
#include <map>
#include <set>

namespace tilecc::ir {

namespace {

struct Pending {
  Footprint fp;             // bounds only; the exact footprint is access `index` of `op`
  bool warpSynced = false;  // a warp barrier came after it: same-warp conflicts are resolved
  int epoch = 0;            // the loop nesting it was made in (for hoisting barriers out of loops)
  const Op* op = nullptr;   // who made it
  int index = 0;            // which of its accesses (before, then after)
  bool earlier = false;     // made before the current iteration of the innermost loop began
  bool operator==(const Pending& o) const {
    return fp == o.fp && warpSynced == o.warpSynced && epoch == o.epoch && op == o.op && index == o.index &&
           earlier == o.earlier;
  }
};

struct State {
  std::vector<Pending> pending;
  std::vector<Pending> inflight;  // async writes issued, not yet waited for
  std::vector<Pending> unfenced;  // ordinary writes no proxy fence has followed yet
  bool operator==(const State&) const = default;
};

void join(State& into, const State& other) {
  for (const Pending& p : other.pending)
    if (std::find(into.pending.begin(), into.pending.end(), p) == into.pending.end()) into.pending.push_back(p);
  for (const Pending& f : other.inflight)
    if (std::find(into.inflight.begin(), into.inflight.end(), f) == into.inflight.end()) into.inflight.push_back(f);
  for (const Pending& u : other.unfenced)
    if (std::find(into.unfenced.begin(), into.unfenced.end(), u) == into.unfenced.end()) into.unfenced.push_back(u);
}

enum class Need { None, Warp, Cta };

// Whether two accesses' byte bounds meet.
bool boundsMeet(const Footprint& a, const Footprint& b) { return a.lo < b.hi && b.lo < a.hi; }

class BarrierPass {
 public:
  explicit BarrierPass(Kernel& k) : k_(k) {}

  void run() {
    proxyFences();
    State s;
    block(*k_.body, s, Mode{true, nullptr, 0});
  }

 private:
  Kernel& k_;
  int epoch_ = 0;

  struct Mode {
    bool insert;
    bool* hoist;     // dry run for a loop: set when its first conflict involves only older accesses
    int hoistEpoch;  // accesses made before this epoch are "older"
  };

  // Access `index` of `op`, with its per-warp sets (computed once per op, only when its bounds
  // meet another access's).
  const Footprint& exact(const Op* op, int index) {
    auto it = exact_.find(op);
    if (it == exact_.end()) it = exact_.emplace(op, sharedAccessesOf(k_, *op, true)).first;
    const SharedAccesses& a = it->second;
    const auto i = static_cast<std::size_t>(index);
    return i < a.before.size() ? a.before[i] : a.after[i - a.before.size()];
  }

  Need conflict(const State& st, const Footprint& x, const Op* xop, int xindex, const Mode& m, bool& onlyOlder,
                const Pending*& why) {
    Need need = Need::None;
    onlyOlder = true;
    why = nullptr;
    for (const Pending& p : st.pending) {
      if (!p.fp.write && !x.write) continue;
      if (!boundsMeet(x, p.fp)) continue;  // apart in shared memory
      if (aheadOfCurrentRead(x, xop, p)) continue;
      const Footprint& fx = exact(xop, xindex);
      const Footprint& fp = exact(p.op, p.index);
      const std::size_t warps = fx.warps.size();
      Need here = Need::None;
      for (std::size_t w1 = 0; w1 < warps && here != Need::Cta; ++w1) {
        if (fx.warps[w1].empty()) continue;
        for (std::size_t w2 = 0; w2 < warps; ++w2) {
          if (!fx.warps[w1].intersects(fp.warps[w2])) continue;
          if (w1 != w2) {
            here = Need::Cta;
            break;
          }
          if (!p.warpSynced) here = std::max(here, Need::Warp);
        }
      }
      if (here == Need::None) continue;
      if (here > need || !why) why = &p;
      need = std::max(need, here);
      if (p.epoch >= m.hoistEpoch) onlyOlder = false;
    }
    return need;
  }

  // The ring an op views through a slot of this pipeline role (`ring`: that ring only), if any.
  static const Value* roleRing(const Op* op, int role, const Value* ring = nullptr) {
    for (const Value* v : op->operands)
      if (v->type.isShared() && v->def && v->def->kind == OpKind::SharedSlot && v->def->count == role &&
          (!ring || v->def->operands[0] == ring))
        return v->def->operands[0];
    return nullptr;
  }

  // A pipeline's copies into the slot ahead, against reads of the current slot of the same ring
  // in the same iteration: different slots, whatever the run-time indices (PipelineLoops). Reads
  // of an earlier iteration may have read the slot now ahead, so they still conflict.
  static bool aheadOfCurrentRead(const Footprint& x, const Op* xop, const Pending& p) {
    if (!x.write || !x.async || p.fp.write || p.earlier) return false;
    const Value* ring = roleRing(xop, kSlotAhead);
    return ring && roleRing(p.op, kSlotCurrent, ring);
  }

  // A loop's iteration begins: everything pending was made before it.
  static State iterationStart(State s) {
    for (Pending& p : s.pending) p.earlier = true;
    for (Pending& p : s.inflight) p.earlier = true;
    return s;
  }

  // wgmma and TMA stores read shared memory through the async proxy: each thread fences its
  // ordinary writes to such a buffer (shared stores, and cp.async copies once waited for) right
  // after them, so that whichever barrier orders them before the reader also covers the proxy.
  void proxyFences() {
    std::set<const Value*> asyncRead;
    walk(*k_.body, [&](const Op& o) {
      if (o.kind == OpKind::Wgmma)
        for (const Value* v : {o.operands[0], o.operands[1]})
          if (v->type.isShared()) asyncRead.insert(sharedRoot(v));
      if (o.kind == OpKind::TmaStore) asyncRead.insert(sharedRoot(o.operands[1]));
    });
    if (asyncRead.empty()) return;
    std::vector<Op*> after;
    walk(*k_.body, [&](Op& o) {
      bool feeds = false;
      if (o.kind == OpKind::SharedStore) feeds = asyncRead.count(sharedRoot(o.operands[1])) > 0;
      if (o.kind == OpKind::AsyncWait)
        for (const Value* b : o.operands) feeds |= asyncRead.count(sharedRoot(b)) > 0;
      if (feeds) after.push_back(&o);
    });
    for (Op* o : after) {
      Builder bld{k_, o->parent, o->loc, {}, -1};
      bld.setInsertionAfter(*o);
      bld.create(OpKind::ProxyFence, {}, {});
    }
  }

  // Pure ops on registers (no memory, no regions): a barrier may move above them.
  static bool registersOnly(const Op& o) {
    const OpTraits& t = traits(o.kind);
    return t.pure && o.regions.empty() && o.kind != OpKind::Reduce && o.kind != OpKind::Scan;
  }

  static void apply(State& st, Need n) {
    if (n == Need::Cta) st.pending.clear();
    if (n == Need::Warp)
      for (Pending& p : st.pending) p.warpSynced = true;
  }

  // Makes the accesses `xs` of op i of b (one step of the op: they happen together), with the
  // one barrier the strongest of their conflicts needs inserted before the op.
  // Makes the accesses `xs` (the op's accesses from `first` on) of op i of b.
  void access(Block& b, std::size_t& i, State& st, const std::vector<Footprint>& xs, int first, const Mode& m) {
    Need need = Need::None;
    const Pending* why = nullptr;
    const Footprint* what = nullptr;
    bool onlyOlder = true;  // every conflict of the op is with accesses made before the loop
    const Op* op = b.ops[i].get();
    for (std::size_t j = 0; j < xs.size(); ++j) {
      const Footprint& x = xs[j];
      bool older = false;
      const Pending* w = nullptr;
      const Need n = conflict(st, x, op, first + static_cast<int>(j), m, older, w);
      if (n == Need::None) continue;
      onlyOlder &= older;
      if (n > need) {
        need = n;
        why = w;
        what = &x;
      }
    }
    // A TMA copy into bytes with ordinary writes not yet fenced: a proxy fence, then a CTA barrier.
    const Pending* unfenced = nullptr;
    for (const Footprint& x : xs)
      for (const Pending& u : st.unfenced)
        if (x.tma && x.write && !unfenced && boundsMeet(x, u.fp)) unfenced = &u;
    if (m.hoist && need != Need::None && onlyOlder && !unfenced) *m.hoist = true;
    Op& o = *b.ops[i];
    if (need != Need::None || unfenced) {
      if (m.insert) {
        // As early as the hazard allows: above the register-only work before the access (the
        // address arithmetic of the next copies), right after the last op with an effect.
        std::size_t at = i;
        while (at > 0 && registersOnly(*b.ops[at - 1])) --at;
        Builder bld{k_, &b, o.loc, {}, static_cast<long>(at)};
        if (unfenced) {
          bld.create(OpKind::ProxyFence, {}, {});
          ++i;
        }
        Op* bar = bld.create(OpKind::Barrier, {}, {});
        bar->sync = need == Need::Warp && !unfenced ? Sync::Warp : Sync::Cta;
        bar->note = unfenced ? std::string("TMA writes after the ordinary writes of ") + name(unfenced->op->kind) +
                                   (unfenced->op->loc.line ? " (line " + std::to_string(unfenced->op->loc.line) + ")" : "") +
                                   " to its bytes, fenced"
                             : std::string(what->write ? "writes" : "reads") + " after the " + (why->fp.write ? "writes" : "reads") + " of " +
                                   name(why->op->kind) + (why->op->loc.line ? " (line " + std::to_string(why->op->loc.line) + ")" : "") +
                                   (need == Need::Cta ? " by other warps" : " within each warp");
        ++i;
      }
      if (unfenced) st.unfenced.clear();
      apply(st, unfenced ? Need::Cta : need);
    }
    const Op* self = b.ops[i].get();
    for (std::size_t j = 0; j < xs.size(); ++j) {
      const Pending p{xs[j], false, epoch_, self, first + static_cast<int>(j)};
      (xs[j].async ? st.inflight : st.pending).push_back(p);
      if (xs[j].write && !xs[j].async) st.unfenced.push_back(p);
    }
  }

  // Whether a TMA copy in `o`'s regions writes bytes of an ordinary write not yet fenced.
  bool copiesMeetUnfenced(const Op& o, const State& st) {
    if (st.unfenced.empty()) return false;
    bool meets = false;
    for (const auto& r : o.regions)
      walk(static_cast<const Block&>(*r), [&](const Op& x) {
        if (meets || x.kind != OpKind::TmaLoad) return;
        for (const Footprint& f : bounds(x).before)
          for (const Pending& u : st.unfenced) meets = meets || (f.write && boundsMeet(f, u.fp));
      });
    return meets;
  }

  void block(Block& b, State& st, const Mode& m) {
    for (std::size_t i = 0; i < b.ops.size(); ++i) {
      Op& o = *b.ops[i];
      if ((o.kind == OpKind::For || o.kind == OpKind::If) && copiesMeetUnfenced(o, st)) {
        if (m.insert) {
          Builder bld{k_, &b, o.loc, {}, static_cast<long>(i)};
          bld.create(OpKind::ProxyFence, {}, {});
          ++i;
        }
        st.unfenced.clear();
      }
      switch (o.kind) {
        case OpKind::For: loop(o, st, m); continue;
        case OpKind::If: {
          // Copies skipped under a condition (a block-sparse operand, pipeline-loops): a barrier
          // their slot needs goes before the `if`, where it also orders what follows (the
          // iteration's dot, under a condition of its own) instead of a second barrier there.
          if (const Pending* why = copiesOnly(o) ? ctaConflict(*o.regions[0], st, m) : nullptr) {
            if (m.insert) {
              std::size_t at = i;
              while (at > 0 && registersOnly(*b.ops[at - 1])) --at;
              Builder bld{k_, &b, o.loc, {}, static_cast<long>(at)};
              Op* bar = bld.create(OpKind::Barrier, {}, {});
              bar->note = std::string("writes of copies under a condition after the ") + (why->fp.write ? "writes" : "reads") + " of " +
                          name(why->op->kind) + (why->op->loc.line ? " (line " + std::to_string(why->op->loc.line) + ")" : "") +
                          " by other warps";
              ++i;
            }
            apply(st, Need::Cta);
          }
          State other = st;
          block(*o.regions[0], st, m);
          block(*o.regions[1], other, m);
          join(st, other);
          continue;
        }
        case OpKind::WarpGroup: {
          // Ordinary writes before the roles split, to bytes the producer's TMA copies may
          // write: fenced (and a barrier) here, where every thread still runs, not in a region.
          if (copiesMeetUnfenced(o, st)) {
            if (m.insert) {
              Builder bld{k_, &b, o.loc, {}, static_cast<long>(i)};
              bld.create(OpKind::ProxyFence, {}, {});
              bld.create(OpKind::Barrier, {}, {})->note = "ordinary writes before the warp groups split, fenced for their TMA copies";
              i += 2;
            }
            st.unfenced.clear();
            apply(st, Need::Cta);
          }
          // The other warps' region runs beside this one: their shared memory is ordered by
          // mbarriers (warp specialisation), not by barriers of either region.
          State other = st;
          block(*o.regions[0], st, m);
          if (o.regions.size() > 1) block(*o.regions[1], other, m);
          join(st, other);
          continue;
        }
        case OpKind::Barrier:
          // A turn orders two warp groups' wgmma issue, not the CTA's memory accesses.
          if (o.sync != Sync::TurnWait && o.sync != Sync::TurnPass) apply(st, o.sync == Sync::Warp ? Need::Warp : Need::Cta);
          continue;
        case OpKind::TmaStoreWait:
          // The bulk stores' reads of their buffers are done (the issuing thread waited): from now
          // on they are ordinary reads, which a barrier after this wait orders before any write.
          if (o.count == 0) {
            std::vector<Pending> still;
            for (Pending& f : st.inflight) {
              if (!f.fp.bulkRead) {
                still.push_back(f);
                continue;
              }
              f.fp.async = false;
              f.fp.bulkRead = false;
              f.epoch = epoch_;
              st.pending.push_back(f);
            }
            st.inflight = std::move(still);
          }
          break;
        case OpKind::AsyncWait: {
          // cp.async copies have landed: from now on they are ordinary writes of other threads.
          std::vector<Pending> still;
          for (Pending& f : st.inflight) {
            if (f.fp.tma || f.fp.bulkRead) {
              still.push_back(f);
              continue;
            }
            f.fp.async = false;
            f.epoch = epoch_;
            st.pending.push_back(f);
            st.unfenced.push_back(f);
          }
          st.inflight = std::move(still);
          break;
        }
        case OpKind::ProxyFence:
          st.unfenced.clear();  // every thread runs it, after all its writes so far
          break;
        case OpKind::MBarrierWait:
          // A TMA box is complete, and visible to the threads that waited for its mbarrier.
          st.inflight.erase(std::remove_if(st.inflight.begin(), st.inflight.end(), [](const Pending& f) { return f.fp.tma; }),
                            st.inflight.end());
          break;
        default: break;
      }
      const SharedAccesses& a = bounds(o);
      if (!a.before.empty()) access(b, i, st, a.before, 0, m);
      if (a.barrierInside) st.pending.clear();
      if (!a.after.empty()) access(b, i, st, a.after, static_cast<int>(a.before.size()), m);
    }
  }

  // An `if` that only issues async copies (and computes their operands), with no `else`.
  static bool copiesOnly(const Op& o) {
    if (o.regions.size() != 2 || o.regions[1]->ops.size() != 1) return false;
    bool copies = false;
    for (const auto& x : o.regions[0]->ops) {
      copies |= x->kind == OpKind::AsyncCopy;
      if (x->kind != OpKind::AsyncCopy && x->kind != OpKind::Yield && !registersOnly(*x)) return false;
    }
    return copies;
  }

  // The pending access of another warp that some copy of `region` conflicts with, or null.
  const Pending* ctaConflict(const Block& region, const State& st, const Mode& m) {
    for (const auto& x : region.ops) {
      if (x->kind != OpKind::AsyncCopy) continue;
      const SharedAccesses& a = bounds(*x);
      int index = 0;
      for (const auto* list : {&a.before, &a.after})
        for (const Footprint& f : *list) {
          bool older = false;
          const Pending* why = nullptr;
          if (conflict(st, f, x.get(), index++, m, older, why) == Need::Cta) return why;
        }
    }
    return nullptr;
  }

  // The bounds of an op's accesses, computed once.
  const SharedAccesses& bounds(const Op& o) {
    auto cached = bounds_.find(&o);
    if (cached == bounds_.end()) cached = bounds_.emplace(&o, sharedAccessesOf(k_, o, false)).first;
    return cached->second;
  }

  // The state at the end of the body, iterated from `entry` to a fixed point (no insertion).
  State carried(Block& body, const State& entry, const Mode& outer) {
    State carry;
    for (int round = 0; round < 8; ++round) {
      State s = entry;
      join(s, carry);
      s = iterationStart(std::move(s));
      block(body, s, Mode{false, nullptr, outer.hoistEpoch});
      if (s == carry) break;
      carry = s;
    }
    return carry;
  }

  void loop(Op& l, State& st, const Mode& m) {
    Block& body = *l.regions[0];
    const int saved = epoch_;
    epoch_ = ++counter_;
    State entry = st;
    State carry = carried(body, entry, m);
    if (m.insert) {
      // A barrier needed only for what was done before the loop goes before it, once.
      bool hoist = false;
      State dry = entry;
      join(dry, carry);
      dry = iterationStart(std::move(dry));
      block(body, dry, Mode{false, &hoist, epoch_});
      if (hoist && !entry.pending.empty()) {
        Builder bld{k_, l.parent, l.loc, {}, -1};
        bld.setInsertionBefore(l);
        Op* bar = bld.create(OpKind::Barrier, {}, {});
        bar->note = "before the loop: its first shared-memory access conflicts with what precedes it";
        entry.pending.clear();
        carry = carried(body, entry, m);
      }
      State s = entry;
      join(s, carry);
      s = iterationStart(std::move(s));
      block(body, s, Mode{true, nullptr, epoch_});
      carry = s;
    }
    // After the loop: as before it (no iteration) or as after its last iteration.
    st = entry;
    join(st, carry);
    epoch_ = saved;
  }

  int counter_ = 0;
  // Footprints do not change during the pass: bounds of every access, exact ones on demand.
  std::map<const Op*, SharedAccesses> bounds_, exact_;
};

}  // namespace

void insertBarriers(Kernel& k) { BarrierPass(k).run(); }

}  // namespace tilecc::ir
