#include "ir/Clone.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace tilecc::ir {

namespace {

bool isElementwise(OpKind k) { return traits(k).elementwise; }

bool isDotLayout(const Layout& l) { return isMmaLayout(l) || isWgmmaLayout(l); }

/// A dot's accumulator layout or a slice of one (a row or a column of the accumulator: a
/// reduction's result along the other axis).
bool isDotOrSlice(const Layout& l) {
  if (l.parentRank() != 2) return false;
  Layout parent = l;
  parent.dims = {0, 1};
  return isDotLayout(parent);
}

/// Whether dot `d` can run as wgmma on `t`: 16-bit operands into fp32, warp groups along M
/// with 16 rows per warp in every 64-row block, N a multiple of 16 up to 256 (B read [K][N]
/// needs rows of 32 bytes or more, the narrowest swizzle), K of 16; and worth it (d.note empty,
/// see noteElementwiseOperands).
bool wgmmaFits(const Op& d, const Target& t, int numWarps) {
  return t.hopper && t.wgmma && d.note.empty() && wgmmaMisfit(d.operands[0]->type, d.operands[1]->type, d.result()->type, numWarps).empty();
}

/// A dot in a loop (or under an `if` in one) whose two operands are both loaded one element at a
/// time in its block (every iteration: no wider access proven, as in a general variant or with operands strided
/// against their rows) stays on mma.sync on sm_90a too: the loads bound it, and wgmma's staging
/// (swizzled stores, proxy fence, a wait per iteration) measured slower on GEMMs (H100, the
/// strided GEMM 4096^3 through its general kernel: rows of 4097 elements 77-78 TFLOP/s against
/// 106-107 on mma.sync, A column-major 39.8-39.9 against 42.2-42.9) and within 2% on the
/// convolution's general kernels (by taps equal, the k / c gather 2% slower). Where one operand
/// is loaded once before the loop or computed (attention's Q and P), wgmma measured faster even
/// so (the attention sample's general kernel at D = 64: 1.26-1.29x): not this rule. Decided for
/// every target alike, so that the sm_90a kernel equals its sm_80 twin (which then serves both)
/// and both reports say why.
void noteElementwiseOperands(Op& d) {
  if (!insideLoop(d)) return;  // directly, or under an `if` in the loop (block-sparse)
  for (int i = 0; i < 2; ++i) {
    const Value* v = d.operands[static_cast<std::size_t>(i)];
    while (v->def && (v->def->kind == OpKind::Convert || v->def->kind == OpKind::Trans) && v->def->parent == d.parent)
      v = v->def->operands[0];
    if (!v->def || v->def->kind != OpKind::Load || v->def->parent != d.parent || v->def->access.vec > 1) return;
  }
  d.note = "both operands are loaded one element at a time every iteration (no wider access proven): the loads bound it, "
           "and mma.sync measured 1.06-1.38x faster on such GEMMs";
}

/// The dot whose result `v` is, through loops' and ifs' results and a loop's carried argument
/// (its update, then its initial value), or null.
const Op* accumulatorSource(const Value* v, int depth = 0) {
  if (!v || depth > 8) return nullptr;
  const Op* d = v->def;
  auto yielded = [&](const Block& b, std::size_t j) -> const Op* {
    const Op* y = yieldOf(b);
    return y && j < y->operands.size() ? accumulatorSource(y->operands[j], depth + 1) : nullptr;
  };
  if (!d) {
    const Op* loop = v->owner ? v->owner->parent : nullptr;
    if (!loop || loop->kind != OpKind::For) return nullptr;
    const auto& args = v->owner->args;
    const auto i = static_cast<std::size_t>(std::find(args.begin(), args.end(), v) - args.begin());
    if (i == 0 || i >= args.size()) return nullptr;
    if (const Op* s = yielded(*v->owner, i - 1)) return s;
    return accumulatorSource(loop->operands[i + 2], depth + 1);
  }
  if (d->kind == OpKind::Dot) return d;
  const auto j = static_cast<std::size_t>(std::find(d->results.begin(), d->results.end(), v) - d->results.begin());
  if (d->kind == OpKind::For) return yielded(*d->regions[0], j);
  if (d->kind == OpKind::If)
    for (const auto& r : d->regions)
      if (const Op* s = yielded(*r, j)) return s;
  return nullptr;
}

/// Dots chained through one accumulator (a K loop and its masked tail dot, loops in a row) take
/// one path: where noteElementwiseOperands keeps one on mma.sync, the others stay there too, so
/// the accumulator keeps one layout (user report: a general variant's tail dot on wgmma
/// converted the loop's accumulator through shared memory, and ptxas serialised the wgmma).
void noteChainedDots(const std::vector<Op*>& dots) {
  std::map<const Op*, const Op*> source;
  for (const Op* d : dots) source[d] = accumulatorSource(d->operands[2]);
  for (bool changed = true; changed;) {
    changed = false;
    for (Op* d : dots) {
      if (!d->note.empty()) continue;
      for (const Op* e : dots) {
        if (e == d || e->note.empty() || (source[d] != e && source[e] != d)) continue;
        d->note = "its accumulator is shared with the dot at line " + std::to_string(e->loc.line) +
                  ", which stays on mma.sync (one layout for both, no conversion between them)";
        changed = true;
        break;
      }
    }
  }
}

/// Whether `l` holds several runs per warp along tile axis `axis` (scans need one run).
bool runsAlong(const Layout& l, int axis) { return l.runsPerWarp(l.dims[static_cast<std::size_t>(axis)]) > 1; }

class Assigner {
 public:
  Assigner(Kernel& k, const Target& t) : k_(k), t_(t) {}

  void run() {
    std::vector<Op*> dots;
    walk(*k_.body, [&](Op& o) {
      if (o.kind == OpKind::Dot && wgmmaMisfit(o.operands[0]->type, o.operands[1]->type, o.result()->type, k_.numWarps).empty()) {
        noteElementwiseOperands(o);
        dots.push_back(&o);
      }
    });
    noteChainedDots(dots);
    pinUserLayouts(*k_.body);
    walk(*k_.body, [&](Op& o) {
      for (Value* v : o.operands) users_[v].push_back(&o);
    });
    block(*k_.body);
    insertConversions();
    // Every tile value has a layout now; the table keeps the layouts in use, numbered in
    // order of first use in the program.
    std::map<int, int> renumber;
    std::vector<Layout> used;
    auto assign = [&](Value* v) {
      if (!v->type.isTile()) return;
      auto it = want_.find(v);
      const int l = it != want_.end() ? it->second : intern(defaultLayout(v->type.shape, k_.numWarps));
      auto [pos, fresh] = renumber.emplace(l, static_cast<int>(used.size()));
      if (fresh) used.push_back(table_[static_cast<std::size_t>(l)]);
      v->layout = pos->second;
    };
    walk(*k_.body, [&](Op& o) {
      for (auto& r : o.regions)
        for (Value* a : r->args) assign(a);
      for (Value* r : o.results) assign(r);
    });
    k_.layouts = std::move(used);
  }

 private:
  Kernel& k_;
  const Target& t_;
  std::vector<Layout> table_;
  std::map<Value*, int> want_;
  struct Need {
    Op* user;
    std::size_t operand;
    int layout;
  };
  std::vector<Need> needs_;
  std::set<const Op*> staged_;  // stores whose value goes through shared memory (stagesThroughShared)
  struct After {  // op computes result `result` in `layout`, its users want the value's layout
    Op* op;
    int layout;
    std::size_t result = 0;
  };
  std::vector<After> after_;

  std::map<const Value*, std::vector<Op*>> users_;
  /// Values whose layout the user chose (with_layout): computed, loaded and stored in it.
  std::set<const Value*> pinned_;
  std::set<int> userLayouts_;

  // with_layout<M>(x): x itself is pinned to M and the hint goes; a value pinned twice to
  // different layouts keeps the first and converts to the second.
  void pinUserLayouts(Block& b) {
    for (std::size_t i = 0; i < b.ops.size(); ++i) {
      Op& o = *b.ops[i];
      for (auto& r : o.regions) pinUserLayouts(*r);
      if (o.kind != OpKind::Hint || o.hint != HintKind::Layout) continue;
      const int l = intern(k_.layouts.at(static_cast<std::size_t>(o.intValue)));
      userLayouts_.insert(l);
      Value* x = o.operands[0];
      auto it = want_.find(x);
      if (it == want_.end() || it->second == l) {
        want_[x] = l;
        pinned_.insert(x);
        replaceAllUses(*k_.body, o.result(), x);
        erase(o);
        --i;
      } else {
        o.kind = OpKind::ConvertLayout;
        want_[o.result()] = l;
        pinned_.insert(o.result());
      }
    }
  }

  /// The accumulator layout of dot `d`; chained when another dot is in its data flow, forward
  /// or backward (Triton's rule for attention-like kernels).
  std::map<const Op*, int> mma_;
  int mmaFor(const Op& d) {
    if (auto it = mma_.find(&d); it != mma_.end()) return it->second;
    std::set<const Op*> seen{&d};
    std::vector<const Op*> work{&d};
    bool chained = false;
    while (!work.empty() && !chained) {
      const Op* o = work.back();
      work.pop_back();
      auto visit = [&](const Op* n) {
        if (!n || !seen.insert(n).second) return;
        if (n->kind == OpKind::Dot) chained = true;
        work.push_back(n);
      };
      for (const Value* x : o->operands) visit(x->def);
      for (const Value* r : o->results)
        if (auto it = users_.find(r); it != users_.end())
          for (const Op* u : it->second) visit(u);
    }
    // wgmma's accumulator has every warp along M, as chained dots want anyway.
    if (wgmmaFits(d, t_, k_.numWarps)) return mma_[&d] = intern(wgmmaLayout(k_.numWarps));
    return mma_[&d] = intern(mmaLayout(d.result()->type.shape, k_.numWarps, chained));
  }

  int intern(const Layout& l) {
    for (std::size_t i = 0; i < table_.size(); ++i)
      if (table_[i] == l) return static_cast<int>(i);
    table_.push_back(l);
    return static_cast<int>(table_.size()) - 1;
  }
  const Layout& at(int i) const { return table_[static_cast<std::size_t>(i)]; }

  int layoutOf(Value* v) {
    auto it = want_.find(v);
    if (it != want_.end()) return it->second;
    return want_[v] = guess(v, 0);
  }

  // A value nobody has asked for yet follows what its producers already have (an operand of
  // the same shape with a layout, a few ops up), so that it meets them without a conversion.
  int guess(const Value* v, int depth) {
    if (const Op* d = v->def; d && d->kind == OpKind::Load && d->operands[0]->type.isTile()) return anchor(*d);
    if (const Op* d = v->def; d && d->kind == OpKind::Dot) return mmaFor(*d);
    if (const Op* d = v->def; d && d->kind == OpKind::Reduce && depth < 8 && d->operands[0]->type.isTile() && v->type.isTile())
      return intern(removeAxis(at(guess(d->operands[0], depth + 1)), d->axis));  // where it is computed
    if (const Op* d = v->def; d && d->kind == OpKind::Scan && depth < 8) {
      const int g = guess(d->operands[0], depth + 1);
      return runsAlong(at(g), d->axis) ? intern(defaultLayout(v->type.shape, k_.numWarps)) : g;
    }
    if (const Op* d = v->def; d && d->kind == OpKind::Trans && depth < 8)
      return intern(transposed(at(guess(d->operands[0], depth + 1))));
    if (const Op* d = v->def; d && d->kind == OpKind::For && depth < 8) {  // a loop result: what its update computes in
      const Block& body = *d->regions[0];
      for (std::size_t j = 0; j < d->results.size(); ++j)
        if (d->results[j] == v && !body.ops.empty() && body.ops.back()->kind == OpKind::Yield)
          return guess(body.ops.back()->operands[j], depth + 1);
    }
    if (const Op* d = v->def; d && d->kind == OpKind::If && depth < 8) {
      // What its branches compute in, a dot's layout first: a block-sparse K loop's `if`
      // around the dot then carries the accumulator in it (not through shared memory twice
      // an iteration).
      int found = -1;
      for (std::size_t j = 0; j < d->results.size(); ++j) {
        if (d->results[j] != v) continue;
        for (const auto& r : d->regions) {
          if (r->ops.empty() || r->ops.back()->kind != OpKind::Yield) continue;
          const int g = guess(r->ops.back()->operands[j], depth + 1);
          if (isDotLayout(at(g))) return g;
          if (found < 0 && !(at(g) == defaultLayout(v->type.shape, k_.numWarps))) found = g;
        }
      }
      if (found >= 0) return found;
    }
    if (const Op* d = v->def; d && depth < 8 && (isElementwise(d->kind) || d->kind == OpKind::Broadcast))
      for (const Value* x : d->operands) {
        if (!x->type.isTile() || x->type.shape != v->type.shape) continue;
        auto it = want_.find(const_cast<Value*>(x));
        if (it != want_.end()) return it->second;
        const int g = guess(x, depth + 1);
        if (!(at(g) == defaultLayout(x->type.shape, k_.numWarps))) return g;
      }
    return intern(defaultLayout(v->type.shape, k_.numWarps));
  }

  void request(Op& user, std::size_t idx, int layout) {
    Value* v = user.operands[idx];
    if (!v->type.isTile()) return;
    auto it = want_.find(v);
    if (it == want_.end()) {
      want_[v] = layout;
      return;
    }
    if (it->second != layout) needs_.push_back({&user, idx, layout});
  }

  /// Whether the store `o` of a value computed in mma layout `g` (mma.sync's accumulators: runs of
  /// two elements per thread) goes through shared memory into its own coalesced layout: where
  /// the store is proven four times wider (8 elements per access: 16 bytes of f16; f32's 8-byte
  /// pairs against 16 bytes were not measured), is a kernel's epilogue (top level, so the
  /// exchange and its barriers run once), and the staging buffer takes at most half the target's
  /// shared memory (the rings are dead by then and share its bytes). Measured on the sm_80 path
  /// of an H100 (the convolution by taps, 256x128 f16 tiles of an 18-iteration loop): 64
  /// four-byte stores per thread held the warps in lg_throttle at the end of each program; 16
  /// sixteen-byte stores from shared memory took it from 281 to 327 TFLOP/s. wgmma's
  /// accumulators (the same pairs, each warp 16 rows) too: on sm_90a the 128x128 GEMMs went from
  /// 540-546 to 624-629 TFLOP/s (4096^3), attention at D = 64 with 128-key blocks (causal) from
  /// 333-337 to 410-439 (H100, 2026-11-27). Where the store goes out through TMA instead
  /// (tma-stores), that buffer converts; where it would cost pipeline stages (Pipeline.cpp), the
  /// variant is built again without staging.
  bool stagesThroughShared(const Op& o, int g) {
    if (!k_.stageStores || !(isMmaLayout(at(g)) || isWgmmaLayout(at(g))) || o.parent != k_.body.get() || o.access.vec < 8) return false;
    const Value* v = o.operands[1];
    if (v->type.rank() != 2 || o.access.axis != 1) return false;
    if (auto it = want_.find(const_cast<Value*>(v)); it != want_.end() && it->second != g) return false;  // used elsewhere in another layout
    const int eb = v->type.elem.bytes();
    const std::int64_t rowBytes = (v->type.shape[1] + conversionPad(v->type.shape, eb, o.access.vec * eb)) * eb;
    return v->type.shape[0] * rowBytes <= t_.sharedLimit / 2;
  }

  // Whether access `o` in layout `l` is issued at its full chosen width along its axis.
  bool asWide(const Op& o, int l) const {
    const int axis = o.access.axis;
    if (axis < 0 || o.access.vec <= 1) return false;
    const Value* p = o.operands[0];
    const AxisGeom g = axisGeom(at(l), axis, p->type.shape[static_cast<std::size_t>(axis)]);
    return issuedVec(o.access, g.spt, p->type.elem.pointeeType().bytes()) >= o.access.vec;
  }
  // Memory operations choose their own layout: coalesced, with the access width the axis
  // analysis proved along its fastest axis.
  int anchor(const Op& o) { return intern(defaultLayout(o.operands[0]->type.shape, k_.numWarps, o.access.vec, o.access.axis)); }

  /// The anchor layout of the first load, store or atomic in `b` whose pointers are `v`; -1 if none.
  int accessFed(Block& b, const Value* v) {
    const Op* found = nullptr;
    walk(b, [&](Op& u) {
      if (!found && (u.kind == OpKind::Load || u.kind == OpKind::Store || u.kind == OpKind::AtomicAdd) && u.operands[0] == v)
        found = &u;
    });
    return found ? anchor(*found) : -1;
  }

  void block(Block& b) {
    for (auto it = b.ops.rbegin(); it != b.ops.rend(); ++it) op(**it);
  }

  std::optional<int> insertAxis(int resultLayout, int axis) {
    Layout r = at(resultLayout);
    std::vector<int> missing;
    for (int p = 0; p < r.parentRank(); ++p)
      if (std::find(r.dims.begin(), r.dims.end(), p) == r.dims.end()) missing.push_back(p);
    for (int p : missing) {
      Layout c = r;
      c.dims.insert(c.dims.begin() + axis, p);
      if (std::is_sorted(c.dims.begin(), c.dims.end())) return intern(c);
    }
    if (!missing.empty()) {
      Layout c = r;
      c.dims.insert(c.dims.begin() + axis, missing.front());
      return intern(c);
    }
    return std::nullopt;
  }

  void op(Op& o) {
    Value* res = o.result();
    switch (o.kind) {
      case OpKind::Load:
      case OpKind::AtomicAdd:
        if (o.operands[0]->type.isTile()) {
          int a = pinned_.count(res) ? want_.at(res) : anchor(o);
          // A load in a loop whose value meets a dot's result (a bias added to attention's
          // scores, a scale applied to the accumulator) is read in the dot's layout, as Triton
          // does: narrower accesses, but no round trip through shared memory, with its
          // barriers, every iteration. Likewise where the layout wanted issues the load as
          // wide as its own (a dequantisation scale read where the unpacked weights lie).
          if (o.kind == OpKind::Load && !pinned_.count(res) && insideLoop(o))
            if (auto w = want_.find(res); w != want_.end() && (isDotLayout(at(w->second)) || asWide(o, w->second))) a = w->second;
          // Vector atomics (old values unused) add a dot's accumulator where it lies, pairs of
          // consecutive elements per thread, as stores do: no conversion through shared memory.
          if (o.kind == OpKind::AtomicAdd && o.access.vec > 1 && !pinned_.count(res))
            if (const int g = guess(o.operands[1], 0); isDotLayout(at(g))) a = g;
          auto it = want_.find(res);
          if (it != want_.end() && it->second != a)
            after_.push_back({&o, a});
          else
            want_[res] = a;
          for (std::size_t i = 0; i < o.operands.size(); ++i) request(o, i, a);
        }
        return;
      case OpKind::Store:
        if (o.operands[0]->type.isTile()) {
          int a = anchor(o);
          const int g = guess(o.operands[1], 0);
          if (stagesThroughShared(o, g)) {
            // The value stays where it is computed; one conversion before the store. From
            // wgmma's accumulators, into a layout where each warp holds what it computed: no
            // barrier across warps between the staging buffer's writes and reads, so consumer
            // warp groups that take turns stage too (attention at D = 128: causal +7%, H100,
            // 2026-11-27). mma.sync's keep the store's own layout: its pointers are shared
            // with the loads' (on the sm_80 path, attention at D = 64 measured 198 against 218
            // TFLOP/s warp-local, one round).
            if (isWgmmaLayout(at(g)))
              if (auto w = warpLocalLayout(at(g), o.operands[1]->type.shape, at(a).spt[1])) a = intern(*w);
            request(o, 1, g);
            needs_.push_back({&o, 1, a});
            staged_.insert(&o);
            k_.stagedStores = true;
            for (std::size_t i = 0; i < o.operands.size(); ++i)
              if (i != 1) request(o, i, a);
            return;
          }
          // A value computed by dot is otherwise stored from its accumulator layout (runs of
          // two per thread) rather than converted through shared memory; so is a row or column
          // of one (attention's row statistics, stored once after the loop that carries them:
          // asked in the store's layout, the loop converted them through shared memory in every
          // iteration, Triton's tutorial attention 0.78x cuDNN against the sample's 0.94x), and
          // a value computed in a layout the user chose.
          if (isDotOrSlice(at(g)) || userLayouts_.count(g)) a = g;
          for (std::size_t i = 0; i < o.operands.size(); ++i) request(o, i, a);
        }
        return;
      case OpKind::Broadcast:
      case OpKind::Binary:
      case OpKind::Unary:
      case OpKind::Fma:
      case OpKind::Select:
      case OpKind::Convert:
      case OpKind::AddPtr:
      case OpKind::Hint:
        if (res->type.isTile()) {
          const int r = layoutOf(res);
          for (std::size_t i = 0; i < o.operands.size(); ++i) request(o, i, r);
        }
        return;
      case OpKind::ExpandDims: request(o, 0, intern(removeAxis(at(layoutOf(res)), o.axis))); return;
      case OpKind::Trans: request(o, 0, intern(transposed(at(layoutOf(res))))); return;
      case OpKind::Reshape:
        layoutOf(res);
        request(o, 0, intern(defaultLayout(o.operands[0]->type.shape, k_.numWarps)));
        return;
      case OpKind::Arange: layoutOf(res); return;
      case OpKind::Scan: {  // in the layout of its result, unless that has several runs per warp along the axis
        const int l = layoutOf(res);
        if (!runsAlong(at(l), o.axis)) {
          request(o, 0, l);
          return;
        }
        const int plain = intern(defaultLayout(res->type.shape, k_.numWarps));
        request(o, 0, plain);
        after_.push_back({&o, plain});
        return;
      }
      case OpKind::Reduce: {
        Value* x = o.operands[0];
        const int axis = o.axis;
        int p;
        if (auto it = want_.find(x); it != want_.end()) {
          p = it->second;
        } else if (res->type.isTile()) {
          auto slot = insertAxis(layoutOf(res), axis);
          // Where the operand's own layout reduces within warps, it stays: converting the
          // result (shape[axis] times smaller) is cheaper than converting the operand (an
          // argmin in a K loop converted its whole tile through shared memory every iteration).
          const int own = guess(x, 0);
          if ((!slot || *slot != own) && reduceGeom(at(own), x->type.shape, axis).warps == 1) p = own;
          else p = slot ? *slot : intern(defaultLayout(x->type.shape, k_.numWarps));
        } else {
          p = guess(x, 0);
        }
        request(o, 0, p);
        if (res->type.isTile()) {
          const int natural = intern(removeAxis(at(p), axis));
          if (layoutOf(res) != natural) after_.push_back({&o, natural});
        }
        return;
      }
      case OpKind::Dot: {
        // The tensor-core tile decides the result's layout; the operands go through shared
        // memory, so they keep whatever layout their producers have.
        const int m = mmaFor(o);
        auto it = want_.find(res);
        if (it != want_.end() && it->second != m)
          after_.push_back({&o, m});
        else
          want_[res] = m;
        layoutOf(o.operands[0]);
        layoutOf(o.operands[1]);
        request(o, 2, m);
        return;
      }
      case OpKind::For: {
        Block& body = *o.regions[0];
        std::vector<int> ls(o.results.size(), -1);
        const Op* yield = !body.ops.empty() && body.ops.back()->kind == OpKind::Yield ? body.ops.back().get() : nullptr;
        for (std::size_t j = 0; j < o.results.size(); ++j)
          if (o.results[j]->type.isTile()) {
            // A carried value keeps the layout its update computes in (e.g. acc += load(...)).
            // A dot accumulator, and a reduction's result (a slice layout: an argmin or a row
            // sum accumulated over a loop), keep it even when the code after the loop wants
            // another layout: one conversion after the loop, not two per iteration.
            int g = yield ? guess(yield->operands[j], 0) : -1;
            // A carried pointer tile (p += step) takes the layout of the access it feeds.
            if (const int a = accessFed(body, body.args[j + 1]); a >= 0 && (g < 0 || !isDotLayout(at(g)))) g = a;
            if (pinned_.count(body.args[j + 1])) g = want_.at(body.args[j + 1]);
            auto it = want_.find(o.results[j]);
            if (it == want_.end() && g >= 0) {
              want_[o.results[j]] = g;
            } else if (it != want_.end() && g >= 0 && it->second != g &&
                       (isDotLayout(at(g)) || at(g).dims.size() < static_cast<std::size_t>(at(g).parentRank()))) {
              after_.push_back({&o, g, j});
              ls[j] = g;
            }
            if (ls[j] < 0) ls[j] = layoutOf(o.results[j]);
            want_[body.args[j + 1]] = ls[j];
          }
        yieldRequests(body, ls);
        block(body);
        for (std::size_t j = 0; j < o.results.size(); ++j)
          if (ls[j] >= 0) request(o, j + 3, ls[j]);
        return;
      }
      case OpKind::If: {
        std::vector<int> ls(o.results.size(), -1);
        for (std::size_t j = 0; j < o.results.size(); ++j)
          if (o.results[j]->type.isTile()) ls[j] = layoutOf(o.results[j]);
        for (auto& r : o.regions) {
          yieldRequests(*r, ls);
          block(*r);
        }
        return;
      }
      default:
        if (res && res->type.isTile()) layoutOf(res);
        return;
    }
  }

  void yieldRequests(Block& b, const std::vector<int>& ls) {
    if (b.ops.empty() || b.ops.back()->kind != OpKind::Yield) return;
    Op& y = *b.ops.back();
    for (std::size_t j = 0; j < ls.size(); ++j)
      if (ls[j] >= 0) request(y, j, ls[j]);
  }

  // ---- conversions and rematerialisation ----

  static std::size_t indexIn(const Block& b, const Op* op) {
    for (std::size_t i = 0; i < b.ops.size(); ++i)
      if (b.ops[i].get() == op) return i;
    return b.ops.size();
  }

  Op* insertBefore(Block& b, std::size_t pos, OpKind kind, std::vector<Value*> operands, Type t, int layout, const Op& like) {
    auto op = std::make_unique<Op>();
    op->kind = kind;
    if (kind != OpKind::ConvertLayout) copyAttributes(like, *op);
    op->kind = kind;
    op->operands = std::move(operands);
    op->parent = &b;
    op->loc = like.loc;
    Value* v = k_.newValue(std::move(t));
    v->def = op.get();
    want_[v] = layout;
    op->results.push_back(v);
    Op* raw = op.get();
    b.ops.insert(b.ops.begin() + static_cast<long>(pos), std::move(op));
    return raw;
  }

  bool cheap(const Value* v, int depth) const {
    if (!v->type.isTile()) return true;
    const Op* d = v->def;
    if (!d || depth > 12) return false;
    if (d->kind == OpKind::Arange || d->kind == OpKind::Splat) return true;
    if (!(isElementwise(d->kind) || d->kind == OpKind::Broadcast || d->kind == OpKind::ExpandDims || d->kind == OpKind::Trans))
      return false;
    for (const Value* x : d->operands)
      if (!cheap(x, depth + 1)) return false;
    return true;
  }

  int operandLayout(const Op& d, int resultLayout) {
    switch (d.kind) {
      case OpKind::ExpandDims: return intern(removeAxis(at(resultLayout), d.axis));
      case OpKind::Trans: return intern(transposed(at(resultLayout)));
      default: return resultLayout;
    }
  }

  // v in `layout`, computed just before position pos of block b.
  Value* materialize(Value* v, int layout, Block& b, std::size_t& pos) {
    if (!v->type.isTile() || want_.at(v) == layout) return v;
    const Op* d = v->def;
    // A conversion's operand already in the wanted layout: no conversion back.
    if (d && d->kind == OpKind::ConvertLayout && want_.count(d->operands[0]) && want_.at(d->operands[0]) == layout)
      return d->operands[0];
    if (cheap(v, 0)) {
      std::vector<Value*> ops;
      for (Value* x : d->operands) ops.push_back(materialize(x, operandLayout(*d, layout), b, pos));
      Op* c = insertBefore(b, pos++, d->kind, ops, v->type, layout, *d);
      c->result()->name = v->name;
      c->result()->hint = v->hint;
      return c->result();
    }
    static const Op none{};
    Op* c = insertBefore(b, pos++, OpKind::ConvertLayout, {v}, v->type, layout, d ? *d : none);
    c->result()->name = v->name;
    c->result()->hint = v->hint;
    return c->result();
  }

  void insertConversions() {
    // Results computed in another layout first: a need may then find the unconverted value.
    for (const After& a : after_) {
      Block& b = *a.op->parent;
      Value* orig = a.op->results[a.result];
      Value* raw = k_.newValue(orig->type, orig->name);
      raw->hint = orig->hint;
      raw->def = a.op;
      want_[raw] = a.layout;
      a.op->results[a.result] = raw;
      auto conv = std::make_unique<Op>();
      conv->kind = OpKind::ConvertLayout;
      conv->operands = {raw};
      conv->results = {orig};
      conv->parent = &b;
      conv->loc = a.op->loc;
      orig->def = conv.get();
      b.ops.insert(b.ops.begin() + static_cast<long>(indexIn(b, a.op) + 1), std::move(conv));
    }
    for (const Need& n : needs_) {
      Block& b = *n.user->parent;
      std::size_t pos = indexIn(b, n.user);
      n.user->operands[n.operand] = materialize(n.user->operands[n.operand], n.layout, b, pos);
      // A staged store's conversion belongs to the store (its buffer and barriers say so), as
      // does that of a value no op defines (a loop's carried value): the report names its line.
      if (Op* c = n.user->operands[n.operand]->def; c && c->kind == OpKind::ConvertLayout && (staged_.count(n.user) || c->loc.line == 0))
        c->loc = n.user->loc;
    }
  }
};

}  // namespace

void assignLayouts(Kernel& k, const Target& t) {
  Assigner(k, t).run();
  renumberLayouts(k);
}

void renumberLayouts(Kernel& k) {
  std::set<int> usedIdx;
  auto note = [&](const Value* v) {
    if (v->type.isTile() && v->layout >= 0) usedIdx.insert(v->layout);
  };
  walk(*k.body, [&](const Op& o) {
    for (const auto& r : o.regions)
      for (const Value* a : r->args) note(a);
    for (const Value* r : o.results) note(r);
  });
  std::vector<std::pair<Layout, int>> order;
  for (int i : usedIdx) order.push_back({k.layouts[static_cast<std::size_t>(i)], i});
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::map<int, int> renumber;
  std::vector<Layout> table;
  for (const auto& [l, i] : order) {
    renumber[i] = static_cast<int>(table.size());
    table.push_back(l);
  }
  for (auto& v : k.values)
    if (v->layout >= 0) v->layout = renumber.count(v->layout) ? renumber.at(v->layout) : -1;
  k.layouts = std::move(table);
}

}  // namespace tilecc::ir
