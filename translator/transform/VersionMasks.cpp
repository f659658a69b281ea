// Selects whose mask holds everywhere in most iterations of a loop skip it there.
//
// A loop over blocks of keys (attention), columns or K computes a mask such as
// `offs_n < seq_len` or the causal `offs_m >= offs_n` and selects with it in every iteration,
// although the mask is all true in every block but the last (or the diagonal one): per element
// one or two comparisons and a select, beside a softmax of four or five instructions. When the
// mask is built from comparisons of affine index tiles (scalars plus aranges, through splats,
// broadcasts, +, − and × by constants), "true everywhere" is a comparison of the tiles' extreme
// values, a uniform scalar test per iteration:
//
//   offs_n = start_n + arange<BN>    in [start_n, start_n + BN − 1]
//   offs_n < seq_len everywhere  ⇔  start_n + BN − 1 < seq_len
//
// and the select becomes
//
//   qk = if (test) { yield dot } else { mask ops...; yield select(mask, dot, other) }
//
// with the ops computing the mask (and the other value) moved into the else region, so the
// common case computes none of them. Integers wrap (contract), so the test is exact only where
// no element wrapped: it is computed in 64 bits and also requires the tiles' extreme values to
// lie in their type (each such check dropped where the operands' types already prove it).
//
// The else region is then made cheap for ptxas, which schedules work that does not read the
// dot's result ahead of the wgmma wait, into registers the accumulators also need:
//
//   - the select's user is distributed over it where one choice is the user's identity:
//     `x + where(mask, 0, c)` becomes `where(mask, y, y + c)` with y = x + 0 (exact), so no tile
//     of constants exists apart from x;
//   - a comparison with `s + arange` becomes one of `x - s` (in 64 bits, clamped to 32) with the
//     arange, which the printer compares per element with a constant (ir/IndexTiles.h), in a
//     region of its own where the scalar test says that no `s + i` wraps.
//
// Runs last on the GPU level: the loop passes before it (pipelining, warp specialisation,
// overlapped dots, turns) see the body they expect, and only pure register ops move.
#include "ir/Builder.h"
#include "ir/Clone.h"
#include "ir/IndexTiles.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <set>

namespace tilecc::ir {

namespace {

using Wide = __int128;

/// Σ coef · scalar + [lo, hi]: the values of an integer tile (each element exact, before the
/// wrap its type applies; terms sorted by value id).
struct Affine {
  std::vector<std::pair<Value*, std::int64_t>> terms;
  Wide lo = 0, hi = 0;
};

/// Σ coef · scalar + k ≤ 0 (exact), or a scalar bool that must be true (flag).
struct Atom {
  std::vector<std::pair<Value*, std::int64_t>> terms;
  Wide k = 0;
  Value* flag = nullptr;
};

// Ops whose result holds only elements of their operand (placed anew, none changed): a bound or
// an all-true fact of the operand is one of the result.
bool keepsElements(OpKind k) {
  return k == OpKind::Splat || k == OpKind::Broadcast || k == OpKind::ExpandDims || k == OpKind::Reshape || k == OpKind::Trans ||
         k == OpKind::Hint;
}

constexpr Wide kLimit = Wide{1} << 40;  // constants beyond this are not worth an exact test

bool small32(ElemType e) { return e.kind == Scalar::I8 || e.kind == Scalar::U8 || e.kind == Scalar::I32 || e.kind == Scalar::U32; }
Wide typeMin(ElemType e) { return e.kind == Scalar::I8 ? -128 : e.kind == Scalar::I32 ? -(Wide{1} << 31) : 0; }
Wide typeMax(ElemType e) {
  switch (e.kind) {
    case Scalar::I8: return 127;
    case Scalar::U8: return 255;
    case Scalar::I32: return (Wide{1} << 31) - 1;
    default: return (Wide{1} << 32) - 1;
  }
}

std::vector<std::pair<Value*, std::int64_t>> combine(const std::vector<std::pair<Value*, std::int64_t>>& a,
                                                     const std::vector<std::pair<Value*, std::int64_t>>& b, std::int64_t sign) {
  std::vector<std::pair<Value*, std::int64_t>> r = a;
  for (const auto& [v, c] : b) {
    auto it = std::find_if(r.begin(), r.end(), [&](const auto& t) { return t.first == v; });
    if (it == r.end()) r.push_back({v, sign * c});
    else it->second += sign * c;
  }
  std::erase_if(r, [](const auto& t) { return t.second == 0; });
  std::sort(r.begin(), r.end(), [](const auto& x, const auto& y) { return x.first->id < y.first->id; });
  return r;
}

// The smallest and largest values Σ coef · scalar may take, from the scalars' types.
std::pair<Wide, Wide> termRange(const std::vector<std::pair<Value*, std::int64_t>>& terms) {
  Wide lo = 0, hi = 0;
  for (const auto& [v, c] : terms) {
    const Wide a = c * typeMin(v->type.elem), b = c * typeMax(v->type.elem);
    lo += std::min(a, b);
    hi += std::max(a, b);
  }
  return {lo, hi};
}

class Versioner {
 public:
  explicit Versioner(Kernel& k) : k_(k) {}

  void run() {
    std::vector<Op*> selects;
    walk(*k_.body, [&](Op& op) {
      if (op.kind == OpKind::Select && op.operands[0]->type.isTile() && insideLoop(op)) selects.push_back(&op);
    });
    for (Op* s : selects) version(*s->parent, *s);
  }

 private:
  Kernel& k_;
  std::vector<Value*> leaves_;           // scalars the test reads: they stay where they are
  std::map<const Value*, Value*> wide_;  // the test's scalars, converted to 64 bits once

  // `e` must lie in [tmin, tmax] for every element: two atoms (the ones the types prove dropped).
  void inRange(const Affine& a, Wide tmin, Wide tmax, std::vector<Atom>& out) {
    out.push_back({combine({}, a.terms, -1), tmin - a.lo, nullptr});
    out.push_back({a.terms, a.hi - tmax, nullptr});
  }

  std::optional<Affine> affine(Value* v, std::vector<Atom>& obligations) {
    if (!v->type.isValue() || !small32(v->type.elem)) return std::nullopt;
    Op* d = v->def;
    if (v->type.isScalar()) {
      if (d && d->kind == OpKind::Constant) return Affine{{}, d->intValue, d->intValue};
      leaves_.push_back(v);
      return Affine{{{v, 1}}, 0, 0};
    }
    if (!d) return std::nullopt;
    if (keepsElements(d->kind)) return affine(d->operands[0], obligations);
    switch (d->kind) {
      case OpKind::Arange: return Affine{{}, 0, v->type.shape[0] - 1};
      case OpKind::Convert: {
        // The operand wrapped in its own type: it must not have.
        const ElemType from = d->operands[0]->type.elem;
        auto a = affine(d->operands[0], obligations);
        if (!a) return std::nullopt;
        inRange(*a, typeMin(from), typeMax(from), obligations);
        return a;
      }
      case OpKind::Binary: {
        auto a = affine(d->operands[0], obligations);
        auto b = a ? affine(d->operands[1], obligations) : std::nullopt;
        if (!a || !b) return std::nullopt;
        Affine r;
        if (d->binop == BinOp::Add) {
          r = {combine(a->terms, b->terms, 1), a->lo + b->lo, a->hi + b->hi};
        } else if (d->binop == BinOp::Sub) {
          r = {combine(a->terms, b->terms, -1), a->lo - b->hi, a->hi - b->lo};
        } else if (d->binop == BinOp::Mul && (a->terms.empty() || b->terms.empty())) {
          const bool aConst = a->terms.empty() && a->lo == a->hi;
          const Affine& c = aConst ? *a : *b;
          const Affine& x = aConst ? *b : *a;
          if (!c.terms.empty() || c.lo != c.hi || c.lo > kLimit || c.lo < -kLimit) return std::nullopt;
          const auto f = static_cast<std::int64_t>(c.lo);
          for (const auto& [tv, tc] : x.terms) r.terms.push_back({tv, tc * f});
          r.lo = std::min(x.lo * f, x.hi * f);
          r.hi = std::max(x.lo * f, x.hi * f);
          std::erase_if(r.terms, [](const auto& t) { return t.second == 0; });
        } else {
          return std::nullopt;
        }
        for (const auto& t : r.terms)
          if (t.second > kLimit || t.second < -kLimit) return std::nullopt;
        if (r.lo < -kLimit || r.hi > kLimit) return std::nullopt;
        return r;
      }
      default: return std::nullopt;
    }
  }

  // Atoms that together imply `m` is true in every element; nullopt where none are known.
  std::optional<std::vector<Atom>> allTrue(Value* m) {
    if (!m->type.isValue() || !m->type.elem.isBool()) return std::nullopt;
    Op* d = m->def;
    if (m->type.isScalar()) {
      if (d && d->kind == OpKind::Constant) return d->intValue ? std::optional<std::vector<Atom>>{std::vector<Atom>{}} : std::nullopt;
      leaves_.push_back(m);
      return std::vector<Atom>{{{}, 0, m}};
    }
    if (!d) return std::nullopt;
    if (keepsElements(d->kind)) return allTrue(d->operands[0]);
    if (d->kind != OpKind::Binary) return std::nullopt;
    if (d->binop == BinOp::And) {
      auto a = allTrue(d->operands[0]);
      auto b = a ? allTrue(d->operands[1]) : std::nullopt;
      if (!a || !b) return std::nullopt;
      a->insert(a->end(), b->begin(), b->end());
      return a;
    }
    if (d->binop == BinOp::Or) {  // either side suffices: the one with fewer tests
      auto a = allTrue(d->operands[0]);
      auto b = allTrue(d->operands[1]);
      if (a && (!b || a->size() <= b->size())) return a;
      return b;
    }
    BinOp cmp = d->binop;
    Value* lhs = d->operands[0];
    Value* rhs = d->operands[1];
    if (cmp == BinOp::Gt || cmp == BinOp::Ge) std::swap(lhs, rhs), cmp = cmp == BinOp::Gt ? BinOp::Lt : BinOp::Le;
    if (cmp != BinOp::Lt && cmp != BinOp::Le) return std::nullopt;
    std::vector<Atom> atoms;
    auto a = affine(lhs, atoms);
    auto b = a ? affine(rhs, atoms) : std::nullopt;
    if (!a || !b) return std::nullopt;
    // max(lhs) < min(rhs); with lhs's smallest and rhs's largest value in the type, no element
    // of either wrapped (the other two bounds follow).
    const ElemType t = lhs->type.elem;
    atoms.push_back({combine(a->terms, b->terms, -1), a->hi - b->lo + (cmp == BinOp::Lt ? 1 : 0), nullptr});
    atoms.push_back({combine({}, a->terms, -1), typeMin(t) - a->lo, nullptr});
    atoms.push_back({b->terms, b->hi - typeMax(t), nullptr});
    return atoms;
  }

  // Drops the atoms the scalars' types prove; false if one can never hold.
  static bool simplify(std::vector<Atom>& atoms) {
    std::vector<Atom> kept;
    for (Atom& a : atoms) {
      if (a.flag) {
        if (std::none_of(kept.begin(), kept.end(), [&](const Atom& x) { return x.flag == a.flag; })) kept.push_back(a);
        continue;
      }
      const auto [lo, hi] = termRange(a.terms);
      if (hi + a.k <= 0) continue;
      if (lo + a.k > 0) return false;
      kept.push_back(std::move(a));
    }
    atoms = std::move(kept);
    return true;
  }

  // Σ coef · scalar (coef > 0 here) + c in 64 bits.
  Value* sum(Builder& b, const std::vector<std::pair<Value*, std::int64_t>>& terms, Wide c) {
    const ElemType i64 = ElemType::of(Scalar::I64);
    Value* acc = nullptr;
    for (const auto& [v, coef] : terms) {
      Value*& x0 = wide_[v];
      if (!x0) x0 = b.one(OpKind::Convert, {v}, Type::scalar(i64));
      Value* x = x0;
      if (coef != 1) x = b.binary(BinOp::Mul, x, b.intConst(coef, i64), i64);
      acc = acc ? b.binary(BinOp::Add, acc, x, i64) : x;
    }
    if (c != 0 || !acc) {
      Value* k = b.intConst(static_cast<std::int64_t>(c), i64);
      acc = acc ? b.binary(BinOp::Add, acc, k, i64) : k;
    }
    return acc;
  }

  // The atoms as one scalar bool: each `positive terms + k ≤ negative terms` (k moved to the
  // side where it is positive, so the tests read as `start_n + 128 <= seq_len`).
  Value* test(Builder& b, const std::vector<Atom>& atoms) {
    const ElemType boolean = ElemType::of(Scalar::Bool);
    Value* all = nullptr;
    for (const Atom& a : atoms) {
      Value* t = a.flag;
      if (!t) {
        std::vector<std::pair<Value*, std::int64_t>> pos, neg;
        for (const auto& [v, c] : a.terms) (c > 0 ? pos : neg).push_back({v, c > 0 ? c : -c});
        Value* l = sum(b, pos, a.k > 0 ? a.k : 0);
        Value* r = sum(b, neg, a.k < 0 ? -a.k : 0);
        t = b.binary(BinOp::Le, l, r, boolean);
      }
      all = all ? b.binary(BinOp::And, all, t, boolean) : t;
    }
    return all;
  }

  void version(Block& block, Op& sel) {
    leaves_.clear();
    wide_.clear();
    auto atoms = allTrue(sel.operands[0]);
    if (!atoms || !simplify(*atoms) || atoms->empty()) return;

    // The ops only the select needs (its mask and other value), in program order: they move
    // into the else region. The leaves of the test, and the value the then region yields, stay.
    auto users = collectUsers(*k_.body);
    std::set<const Op*> moved{&sel};
    const std::set<const Value*> pinned(leaves_.begin(), leaves_.end());
    const long at = Builder::indexOf(block, &sel);
    for (long i = at - 1; i >= 0; --i) {
      const Op& o = *block.ops[static_cast<std::size_t>(i)];
      const OpTraits& tr = traits(o.kind);
      if (!tr.pure || !o.regions.empty() || o.results.empty() || o.result() == sel.operands[1]) continue;
      if (tr.family != Family::Scalar && tr.family != Family::Shape && tr.family != Family::Elementwise) continue;
      bool only = true;
      for (const Value* r : o.results) {
        const auto it = users.find(r);
        only = only && !pinned.count(r) && it != users.end() && !it->second.empty() &&
               std::all_of(it->second.begin(), it->second.end(), [&](const Op* u) { return moved.count(u) > 0; });
      }
      if (only) moved.insert(&o);
    }

    // The select's one elementwise user moves into both regions where its other operands are
    // ready before the select: the if then yields that user's result, computed in place, rather
    // than a tile of the select's values beside the user's other operand (the tutorial's causal
    // `qk * scale + where(mask, 0, -1e6)`: 64 more registers a thread at 128x128, which kept
    // two programs off an SM).
    Op* user = sinkable(block, sel, users);

    Value* res = sel.result();
    const Value* mask = sel.operands[0];
    while (mask->name.empty() && mask->def &&
           (mask->def->kind == OpKind::Broadcast || mask->def->kind == OpKind::ExpandDims || mask->def->kind == OpKind::Splat))
      mask = mask->def->operands[0];  // the name the user gave it, before broadcasting
    const std::string maskName = !mask->name.empty() ? mask->name : !mask->hint.empty() ? mask->hint : "mask";
    Builder b{k_, &block, sel.loc, maskName, -1};
    b.setInsertionBefore(sel);
    Value* cond = test(b, *atoms);
    cond->name = maskName + "_all";
    b.hint = res->name.empty() ? res->hint : res->name;
    Value* yielded = user ? user->result() : res;  // what the regions yield
    Op* iff = b.create(OpKind::If, {cond}, {yielded->type});
    // The note names the mask only by a name the user gave it (a hint comes from some user of
    // the value, such as another load the same test masks, and would mislead).
    iff->note = (!mask->name.empty() ? mask->name : std::string("its condition")) + " is true in every element: the select is skipped";
    Value* out = iff->result();
    out->name = yielded->name;
    out->hint = yielded->hint;
    out->layout = yielded->layout;
    yielded->hint = yielded->name.empty() ? yielded->hint : yielded->name;
    yielded->name.clear();
    replaceAllUses(*k_.body, yielded, out);

    Block* then = b.addRegion(iff);
    Builder tb{k_, then, sel.loc, b.hint, -1};
    if (user) {
      ValueMap first{{res, sel.operands[1]}};
      tb.create(OpKind::Yield, {cloneOp(tb, *user, first)->result()}, {});
      moved.insert(user);
    } else {
      tb.create(OpKind::Yield, {sel.operands[1]}, {});
    }
    Block* otherwise = b.addRegion(iff);
    std::vector<std::unique_ptr<Op>> keep;
    for (auto& o : block.ops) {
      if (moved.count(o.get())) {
        o->parent = otherwise;
        otherwise->ops.push_back(std::move(o));
      } else {
        keep.push_back(std::move(o));
      }
    }
    block.ops = std::move(keep);
    const Loc loc = sel.loc;  // distribute may erase the select
    Value* last = user ? distribute(*otherwise, sel, *user) : yielded;
    Builder eb{k_, otherwise, loc, b.hint, -1};
    eb.create(OpKind::Yield, {last}, {});
    relativeIndexes(*otherwise, loc);
  }

  // ---- the select's user over the select (the else region) ----

  // `user(x, where(m, id, c))` → `where(m, y, user(y, c))`, y = user(x, id), where `id` is the
  // identity of user's op: x + ±0 (then c ≠ 0), x − ±0 (c ≠ 0), x × 1. Exact: y is x, or a zero
  // of the other sign, which c ≠ 0 absorbs. The select then reads the dot's values, so ptxas
  // cannot choose the constants ahead of the wgmma wait and keep a register for each. Returns
  // the value the region yields (user's result where the pattern does not hold).
  Value* distribute(Block& region, Op& sel, Op& user) {
    Value* res = user.result();
    if (user.kind != OpKind::Binary || !res->type.elem.isFloat()) return res;
    const std::size_t si = user.operands[1] == sel.result() ? 1 : 0;
    if (user.operands[si] != sel.result() || user.operands[1 - si] == sel.result()) return res;
    const BinOp op = user.binop;
    if (op != BinOp::Add && op != BinOp::Mul && !(op == BinOp::Sub && si == 1)) return res;
    auto identity = [&](const Op* c) { return c && (op == BinOp::Mul ? c->floatValue == 1.0 : c->floatValue == 0.0); };
    const Op* t = scalarConstant(sel.operands[1]);
    const Op* f = scalarConstant(sel.operands[2]);
    if (!t || !f || identity(t) == identity(f)) return res;
    const std::size_t idArm = identity(t) ? 1 : 2;
    const Op* c = idArm == 1 ? f : t;
    if (op != BinOp::Mul && c->floatValue == 0.0) return res;

    Builder b{k_, &region, user.loc, res->name.empty() ? res->hint : res->name, -1};
    b.setInsertionBefore(user);
    auto apply = [&](Value* a, Value* other) {
      Value* v = si == 1 ? b.binary(op, a, other, res->type.elem) : b.binary(op, other, a, res->type.elem);
      v->layout = res->layout;
      return v;
    };
    Value* y = apply(user.operands[1 - si], sel.operands[idArm]);
    Value* z = apply(y, sel.operands[3 - idArm]);
    Value* r = idArm == 1 ? b.one(OpKind::Select, {sel.operands[0], y, z}, res->type)
                          : b.one(OpKind::Select, {sel.operands[0], z, y}, res->type);
    r->layout = res->layout;
    r->name = res->name;
    r->hint = res->hint;
    erase(user);
    erase(sel);
    return r;
  }

  // ---- comparisons with `s + arange` (the else region) ----

  struct Relative {
    Op* cmp;
    std::size_t side;          // the operand that is s + index, maybe placed
    std::vector<Op*> placing;  // broadcasts and expand_dims from the sum to that operand
    Value* index;              // the arange (through placing ops) in the sum
    Value* s;                  // the scalar
  };

  // Comparisons `x cmp (s + index)` (either order; the sum maybe expanded and broadcast) with x
  // the same along the index's axis.
  static std::vector<Relative> relatives(Block& region) {
    std::vector<Relative> out;
    for (auto& up : region.ops) {
      Op& o = *up;
      if (o.kind != OpKind::Binary || !isComparison(o.binop) || !o.result()->type.isTile() ||
          o.operands[0]->type.elem.kind != Scalar::I32)
        continue;
      for (std::size_t side : {1u, 0u}) {
        std::vector<Op*> placing;
        const Value* v = o.operands[side];
        while (v->def && (v->def->kind == OpKind::Broadcast || v->def->kind == OpKind::ExpandDims)) {
          placing.insert(placing.begin(), v->def);
          v = v->def->operands[0];
        }
        const Op* add = v->def;
        if (!add || add->kind != OpKind::Binary || add->binop != BinOp::Add) continue;
        bool found = false;
        for (std::size_t j : {0u, 1u}) {
          Value* idx = add->operands[j];
          const Value* sp = add->operands[1 - j];
          int axis = indexAxis(idx);
          if (axis < 0 || !sp->def || sp->def->kind != OpKind::Splat || !sp->def->operands[0]->type.isScalar()) continue;
          for (const Op* p : placing)
            if (p->kind == OpKind::ExpandDims && axis >= p->axis) ++axis;
          if (!uniformAlong(o.operands[1 - side], axis)) continue;
          out.push_back({&o, side, placing, idx, sp->def->operands[0]});
          found = true;
          break;
        }
        if (found) break;
      }
    }
    return out;
  }

  // x cmp (s + index)  →  clamp32(x − s) cmp index, computed on x before its broadcast (or on the
  // scalar x splats); the index placed as the sum was.
  void rewrite(const Relative& r) {
    Op& o = *r.cmp;
    Value* x = o.operands[1 - r.side];
    const bool splatted = x->def && x->def->kind == OpKind::Splat;
    Value* x0 = x->def && (splatted || x->def->kind == OpKind::Broadcast) ? x->def->operands[0] : x;
    const ElemType i64 = ElemType::of(Scalar::I64);
    const Value* res = o.result();
    Builder b{k_, o.parent, o.loc, res->name.empty() ? res->hint : res->name, -1};
    b.setInsertionBefore(o);
    const Type t64 = x0->type.withElem(i64);
    auto placed = [&](Value* v) {  // a tile of x0's layout; scalars stay scalars
      if (t64.isTile()) v->layout = x0->layout;
      return v;
    };
    auto wide = [&](Value* scalar) { return t64.isTile() ? placed(b.one(OpKind::Splat, {scalar}, t64)) : scalar; };
    Value* d = placed(b.binary(BinOp::Sub, placed(b.one(OpKind::Convert, {x0}, t64)),
                               wide(b.one(OpKind::Convert, {r.s}, Type::scalar(i64))), i64));
    d = placed(b.binary(BinOp::Max, d, wide(b.intConst(INT32_MIN, i64)), i64));
    d = placed(b.binary(BinOp::Min, d, wide(b.intConst(INT32_MAX, i64)), i64));
    d = placed(b.one(OpKind::Convert, {d}, x0->type));
    if (x0 != x) {
      d = b.one(splatted ? OpKind::Splat : OpKind::Broadcast, {d}, x->type);
      d->layout = x->layout;
    }
    Value* index = r.index;
    for (const Op* p : r.placing) {
      ValueMap map{{p->operands[0], index}};
      index = cloneOp(b, *p, map)->result();
    }
    o.operands[1 - r.side] = d;
    o.operands[r.side] = index;
  }

  // Rewrites the region's comparisons with `s + arange`: in place where the scalars' types prove
  // that no `s + i` wraps, else in a copy of the region that a test of the scalars selects.
  void relativeIndexes(Block& region, const Loc& loc) {
    auto found = relatives(region);
    if (found.empty()) return;
    std::vector<Atom> atoms;
    std::vector<Relative> kept;
    for (const Relative& r : found) {
      std::vector<Atom> own;
      auto a = affine(r.s, own);
      if (!a) continue;
      const int n = r.index->type.shape[static_cast<std::size_t>(indexAxis(r.index))];  // i in [0, n)
      own.push_back({a->terms, a->hi + (n - 1) - typeMax(r.s->type.elem), nullptr});
      if (!simplify(own)) continue;  // some s + i always wraps
      atoms.insert(atoms.end(), own.begin(), own.end());
      kept.push_back(r);
    }
    if (kept.empty()) return;
    simplify(atoms);
    if (atoms.empty()) {
      for (const Relative& r : kept) rewrite(r);
      sweep(region);
      return;
    }
    Op* yield = region.ops.back().get();
    Value* yielded = yield->operands[0];
    std::vector<std::unique_ptr<Op>> body;
    for (auto& o : region.ops)
      if (o.get() != yield) body.push_back(std::move(o));
    region.ops.erase(region.ops.begin(), region.ops.end() - 1);

    Builder b{k_, &region, loc, yielded->name.empty() ? yielded->hint : yielded->name, 0};
    Value* cond = test(b, atoms);
    cond->name = "no_index_wraps";
    Op* iff = b.create(OpKind::If, {cond}, {yielded->type});
    iff->note = "no index wraps: the comparisons take each element's index as a constant";
    Value* out = iff->result();
    out->hint = b.hint;
    out->layout = yielded->layout;
    yield->operands[0] = out;

    Block* fast = b.addRegion(iff);
    Builder fb{k_, fast, loc, b.hint, -1};
    ValueMap map;
    for (const auto& o : body) cloneOp(fb, *o, map);
    fb.create(OpKind::Yield, {map.count(yielded) ? map[yielded] : yielded}, {});
    for (const Relative& r : kept) {
      Relative c = r;  // the copy's ops and values
      c.cmp = map.at(r.cmp->result())->def;
      for (Op*& p : c.placing)
        if (map.count(p->result())) p = map[p->result()]->def;  // else defined before the region
      if (map.count(r.index)) c.index = map[r.index];
      if (map.count(r.s)) c.s = map[r.s];
      rewrite(c);
    }
    sweep(*fast);

    Block* slow = b.addRegion(iff);
    for (auto& o : body) {
      o->parent = slow;
      slow->ops.push_back(std::move(o));
    }
    Builder sb{k_, slow, loc, b.hint, -1};
    sb.create(OpKind::Yield, {yielded}, {});
  }

  // The select's only user, where it is a pure elementwise op of this block after the select
  // whose other operands are defined before it; else null.
  Op* sinkable(Block& block, const Op& sel, std::map<const Value*, std::vector<Op*>>& users) {
    const auto it = users.find(sel.result());
    if (it == users.end() || it->second.size() != 1) return nullptr;
    Op* u = it->second[0];
    if (u->parent != &block || !traits(u->kind).pure || !traits(u->kind).elementwise || !u->regions.empty() || u->results.size() != 1)
      return nullptr;
    const long at = Builder::indexOf(block, &sel);
    for (const Value* v : u->operands) {
      if (v == sel.result()) continue;
      if (v->def && v->def->parent == &block && Builder::indexOf(block, v->def) >= at) return nullptr;
    }
    return u;
  }

  // Drops the region's pure ops that nothing reads (what a rewrite left), last first so whole
  // dead chains go in one walk.
  void sweep(Block& region) {
    std::map<const Value*, int> uses;
    walk(*k_.body, [&](Op& o) {
      for (const Value* v : o.operands) ++uses[v];
    });
    for (long i = static_cast<long>(region.ops.size()) - 1; i >= 0; --i) {
      Op& o = *region.ops[static_cast<std::size_t>(i)];
      if (!traits(o.kind).pure || !o.regions.empty() || o.results.empty()) continue;
      if (std::any_of(o.results.begin(), o.results.end(), [&](const Value* v) { return uses[v] > 0; })) continue;
      for (const Value* v : o.operands) --uses[v];
      erase(o);
    }
  }
};

}  // namespace

void versionMasks(Kernel& k) { Versioner(k).run(); }

}  // namespace tilecc::ir
