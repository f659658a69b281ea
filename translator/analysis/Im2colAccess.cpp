#include "analysis/Im2colAccess.h"

#include <algorithm>
#include <deque>
#include <set>

namespace tilecc::ir {

namespace {

// Terms of p that contain atom a (each once), divided by it; the rest apart.
struct Split {
  Poly with, without;
};
std::optional<Split> splitBy(const Poly& p, const Value* a) {
  Split s;
  for (const auto& [m, c] : p.terms) {
    const auto n = std::count(m.begin(), m.end(), a);
    Poly t;
    if (n == 0) {
      t.terms[m] = c;
      s.without = s.without + t;
      continue;
    }
    if (n > 1) return std::nullopt;
    std::vector<const Value*> rest = m;
    rest.erase(std::find(rest.begin(), rest.end(), a));
    t.terms[rest] = c;
    s.with = s.with + t;
  }
  return s;
}


// A program-level start that is never negative: constants and program ids, non-negative coefficients.
bool nonNegativeStart(const Poly& p) {
  for (const auto& [m, c] : p.terms) {
    if (c < 0) return false;
    for (const Value* a : m)
      if (!a->def || a->def->kind != OpKind::ProgramId) return false;
  }
  return true;
}

class Analysis {
 public:
  Analysis(const Kernel& k, const Op& loop) : k_(k), body_(*loop.regions[0]) {
    row_ = newAtom();
    col_ = newAtom();
  }

  // A digit of the row index m: (m / lo) % hi (no hi: the leading digit m / lo).
  struct Digit {
    Poly lo;
    std::optional<Poly> hi;
    const Value* atom;
  };

  // Values as polynomials over scalars, the tile's row index (`row_`, standing for m − m0), its
  // column index (`col_`) and digits of m. `roles`: per axis of v, 'r' (the load's rows), 'c'
  // (its columns) or '1' (a broadcast axis: no index).
  std::optional<Poly> eval(const Value* v, const std::vector<char>& roles) {
    const Op* d = v->def;
    if (!v->type.isTile()) return scalar(v);
    if (!d) return std::nullopt;
    switch (d->kind) {
      case OpKind::Splat: return eval(d->operands[0], {});
      case OpKind::Hint: return eval(d->operands[0], roles);
      case OpKind::Convert:
        if (!widening(*d)) return std::nullopt;
        return eval(d->operands[0], roles);
      case OpKind::Broadcast:
      case OpKind::ExpandDims: {
        auto inner = operandRoles(*d, roles);
        if (!inner) return std::nullopt;
        return eval(d->operands[0], *inner);
      }
      case OpKind::Arange:
        if (roles.size() != 1) return std::nullopt;
        return roles[0] == 'r' ? Poly::atom(row_) : roles[0] == 'c' ? Poly::atom(col_) : Poly{};
      case OpKind::AddPtr: {
        auto p = eval(d->operands[0], roles);
        auto o = eval(d->operands[1], roles);
        if (!p || !o) return std::nullopt;
        return *p + *o;
      }
      case OpKind::Binary: {
        auto a = eval(d->operands[0], roles);
        auto b = eval(d->operands[1], roles);
        if (!a || !b) return std::nullopt;
        switch (d->binop) {
          case BinOp::Add: return *a + *b;
          case BinOp::Sub: return *a - *b;
          case BinOp::Mul: return *a * *b;
          case BinOp::Div:
          case BinOp::Rem: return digitOf(*a, *b, d->binop == BinOp::Div);
          default: return std::nullopt;
        }
      }
      default: return std::nullopt;
    }
  }

  // Conjuncts of a mask as differences compared with 0.
  bool conjuncts(const Value* m, const std::vector<char>& roles, std::vector<std::pair<Poly, BinOp>>& out) {
    const Op* d = m->def;
    if (!d) return false;
    switch (d->kind) {
      case OpKind::Constant: return d->intValue != 0;
      case OpKind::Splat: return conjuncts(d->operands[0], {}, out);
      case OpKind::Broadcast:
      case OpKind::ExpandDims: {
        auto inner = operandRoles(*d, roles);
        return inner && conjuncts(d->operands[0], *inner, out);
      }
      case OpKind::Binary:
        if (d->binop == BinOp::And) return conjuncts(d->operands[0], roles, out) && conjuncts(d->operands[1], roles, out);
        if (d->binop == BinOp::Lt || d->binop == BinOp::Le || d->binop == BinOp::Gt || d->binop == BinOp::Ge) {
          auto a = eval(d->operands[0], roles);
          auto b = eval(d->operands[1], roles);
          if (!a || !b) return false;
          out.push_back({*a - *b, d->binop});
          return true;
        }
        return false;
      default: return false;
    }
  }

  // The leading digit m / lo.
  Digit leading(const Poly& lo) {
    for (const Digit& dg : digits_)
      if (dg.lo == lo && !dg.hi) return dg;
    digits_.push_back({lo, std::nullopt, newAtom()});
    return digits_.back();
  }

  const Value* row() const { return row_; }
  const Value* col() const { return col_; }
  const std::vector<Digit>& digits() const { return digits_; }
  const std::optional<Poly>& rowStart() const { return m0_; }
  bool synthetic(const Value* v) const { return std::any_of(synth_.begin(), synth_.end(), [&](const Value& s) { return &s == v; }); }
  bool free(const Poly& p) const {
    for (const auto& [m, c] : p.terms)
      for (const Value* a : m)
        if (synthetic(a)) return false;
    return true;
  }

 private:
  const Kernel& k_;
  const Block& body_;
  std::deque<Value> synth_;
  const Value* row_;
  const Value* col_;
  std::vector<Digit> digits_;
  std::optional<Poly> m0_;

  const Value* newAtom() {
    synth_.emplace_back();
    synth_.back().id = (1 << 30) + static_cast<int>(synth_.size());
    return &synth_.back();
  }

  // The roles of a broadcast's or expand_dims' operand axes: a broadcast axis has no index; the
  // inserted axis goes.
  static std::optional<std::vector<char>> operandRoles(const Op& d, const std::vector<char>& roles) {
    std::vector<char> inner = roles;
    if (d.kind == OpKind::ExpandDims) {
      if (static_cast<std::size_t>(d.axis) >= roles.size()) return std::nullopt;
      inner.erase(inner.begin() + d.axis);
      return inner;
    }
    const auto& shape = d.operands[0]->type.shape;
    for (std::size_t a = 0; a < inner.size() && a < shape.size(); ++a)
      if (shape[a] == 1) inner[a] = '1';
    return inner;
  }

  static bool widening(const Op& d) {
    const Value* v = d.result();
    return v->type.elem.isInt() && d.operands[0]->type.elem.isInt() && v->type.elem.bytes() >= d.operands[0]->type.elem.bytes();
  }

  // Scalars: constants, sums and products seen through; anything else an atom of its own.
  std::optional<Poly> scalar(const Value* v) {
    const Op* d = v->def;
    if (!d && v->type.elem.isPtr() && !v->owner) return Poly::atom(v);  // the tensor's base
    if (!v->type.elem.isInt()) return std::nullopt;
    if (!d) {
      const int index = k_.paramIndex(v);
      for (const auto& [i, value] : k_.assumed)
        if (i == index && value == kEqualsOne) return Poly::constant(1);
      return Poly::atom(v);
    }
    switch (d->kind) {
      case OpKind::Constant: return Poly::constant(d->intValue);
      case OpKind::Hint: return scalar(d->operands[0]);
      case OpKind::Convert:
        if (widening(*d)) return scalar(d->operands[0]);
        return Poly::atom(v);
      case OpKind::Binary:
        if (d->binop == BinOp::Add || d->binop == BinOp::Sub || d->binop == BinOp::Mul) {
          auto a = scalar(d->operands[0]);
          auto b = scalar(d->operands[1]);
          if (!a || !b) return std::nullopt;
          return d->binop == BinOp::Add ? *a + *b : d->binop == BinOp::Sub ? *a - *b : *a * *b;
        }
        return Poly::atom(v);
      default: return Poly::atom(v);
    }
  }

  // a / b or a % b where a is m (m0 + row) or a digit of it and b an extent (parameters).
  std::optional<Poly> digitOf(const Poly& a, const Poly& b, bool div) {
    if (!free(b) || !onlyParams(b)) return std::nullopt;
    if (auto v = b.constantValue(); v && *v < 2) return std::nullopt;  // an extent of 1 is no digit
    Poly lo = Poly::constant(1);
    std::optional<Poly> hi;
    auto s = splitBy(a, row_);
    if (s && s->with == Poly::constant(1) && free(s->without)) {
      if (m0_ && !(*m0_ == s->without)) return std::nullopt;  // one row index
      m0_ = s->without;
    } else {
      const Digit* found = nullptr;
      for (const Digit& dg : digits_)
        if (a == Poly::atom(dg.atom)) found = &dg;
      if (!found) return std::nullopt;
      lo = found->lo;
      hi = found->hi;
    }
    if (div) {
      if (hi) {
        hi = exactQuotient(*hi, b);  // (m / lo % (b·K)) / b = m / (lo·b) % K, for m >= 0
        if (!hi) return std::nullopt;
      }
      lo = lo * b;
    } else if (!hi || exactQuotient(*hi, b)) {
      hi = b;  // (m / lo % (b·K)) % b = m / lo % b
    } else if (!exactQuotient(b, *hi)) {
      return std::nullopt;
    }
    if (hi && hi->constantValue() == 1) return Poly{};
    for (const Digit& dg : digits_)
      if (dg.lo == lo && dg.hi.has_value() == hi.has_value() && (!hi || *dg.hi == *hi)) return Poly::atom(dg.atom);
    digits_.push_back({lo, hi, newAtom()});
    return Poly::atom(digits_.back().atom);
  }
};

// Normalises a conjunct `p op 0` to `p' < 0` (upper) or `p' >= 0` (lower), integers.
std::pair<Poly, bool> normalise(const Poly& p, BinOp op) {
  switch (op) {
    case BinOp::Lt: return {p, true};
    case BinOp::Le: return {p - Poly::constant(1), true};
    case BinOp::Gt: return {p - Poly::constant(1), false};
    default: return {p, false};
  }
}

}  // namespace

std::optional<Im2colBox> im2colBox(const Kernel& k, const Op& loop, const Op& load) {
  if (load.kind != OpKind::Load || load.operands.size() < 2) return std::nullopt;  // padding needs a mask
  const Value* ptrs = load.operands[0];
  if (ptrs->type.shape.size() != 2) return std::nullopt;
  Analysis an(k, loop);
  const std::vector<char> roles{'r', 'c'};
  // The pointers: a parameter plus offsets.
  const Value* base = ptrs;
  auto pp = an.eval(ptrs, roles);
  if (!pp) return std::nullopt;
  // The base pointer: the one pointer parameter the AddPtr chain starts at.
  while (base->def && (base->def->kind == OpKind::AddPtr || base->def->kind == OpKind::Splat || base->def->kind == OpKind::Broadcast ||
                       base->def->kind == OpKind::Hint))
    base = base->def->operands[0];
  if (base->def || base->owner || !base->type.elem.isPtr() || base->type.isTile()) return std::nullopt;
  Im2colBox box;
  box.baseParam = k.paramIndex(base);
  if (box.baseParam < 0) return std::nullopt;
  auto byBase = splitBy(*pp, base);
  if (!byBase || !(byBase->with == Poly::constant(1))) return std::nullopt;
  const Poly p = byBase->without;
  std::vector<std::pair<Poly, BinOp>> cs;
  if (!an.conjuncts(load.operands[1], roles, cs)) return std::nullopt;
  if (!an.rowStart() || !nonNegativeStart(*an.rowStart())) return std::nullopt;
  const Poly m0 = *an.rowStart();

  // The digits the pointers and the mask use (not those only met on the way: m % (H·W) before
  // its / W), innermost first: lo = 1, then each lo the product of the extents below it.
  std::set<const Value*> used;
  auto use = [&](const Poly& q) {
    for (const auto& [m, c] : q.terms) used.insert(m.begin(), m.end());
  };
  use(p);
  for (const auto& [e, op] : cs) use(e);
  std::vector<Analysis::Digit> digits;
  for (const auto& dg : an.digits())
    if (used.count(dg.atom)) digits.push_back(dg);
  std::vector<Analysis::Digit> chain;
  Poly lo = Poly::constant(1);
  while (true) {
    const Analysis::Digit* next = nullptr;
    for (const auto& dg : digits)
      if (dg.lo == lo) next = &dg;
    if (!next) break;
    chain.push_back(*next);
    if (!next->hi) break;
    lo = lo * *next->hi;
  }
  if (chain.size() != digits.size() || chain.empty()) return std::nullopt;
  // The image index completes m's digits also where nothing uses it (m itself in the pointers).
  if (chain.back().hi) chain.push_back(an.leading(lo));
  const std::size_t spatial = chain.size() - 1;
  if (spatial < 1 || spatial > 3) return std::nullopt;
  // m = Σ digit_k · (extents below it); the row index stands for m − m0.
  Poly composed;
  Poly scale = Poly::constant(1);
  for (const auto& dg : chain) {
    composed = composed + Poly::atom(dg.atom) * scale;
    if (dg.hi) scale = scale * *dg.hi;
  }
  const Poly total = scale;  // pixels per image
  auto substitute = [&](const Poly& q) -> std::optional<Poly> {
    auto s = splitBy(q, an.row());
    if (!s) return std::nullopt;
    return s->without + s->with * (composed - m0);
  };

  // The mask: per spatial digit a lower and an upper bound with one offset; images; channels.
  std::vector<std::optional<Poly>> lower(spatial), upper(spatial);
  std::vector<std::pair<Poly, bool>> channelBounds;
  for (const auto& [diff, op] : cs) {
    auto [e, isUpper] = normalise(diff, op);
    // A bound on m itself (rows past the last pixel).
    if (auto s = splitBy(e, an.row()); s && s->with == Poly::constant(1) && an.free(s->without)) {
      if (!isUpper) {
        if (!(s->without == m0)) return std::nullopt;  // m >= 0
        continue;
      }
      const Poly bound = m0 - s->without;  // m < bound
      if (!onlyParams(bound)) return std::nullopt;
      if (bound == total) {
        box.images = Poly::constant(1);
      } else if (auto n = exactQuotient(bound, total); n) {
        box.images = *n;
      } else {
        return std::nullopt;
      }
      continue;
    }
    if (auto s = splitBy(e, an.col()); s && !s->with.isZero()) {
      if (!(s->with == Poly::constant(1)) || !an.free(s->without)) return std::nullopt;
      channelBounds.push_back({s->without, isUpper});
      continue;
    }
    bool matched = false;
    for (std::size_t i = 0; i < chain.size() && !matched; ++i) {
      auto s = splitBy(e, chain[i].atom);
      if (!s || s->with.isZero()) continue;
      if (!an.free(s->without)) return std::nullopt;
      matched = true;
      if (s->with == Poly::constant(-1)) {  // −d + e < 0 ⇔ d − e − 1 >= 0, and −d + e >= 0 ⇔ d − e − 1 < 0
        s->without = Poly::constant(0) - s->without - Poly::constant(1);
        isUpper = !isUpper;
      } else if (!(s->with == Poly::constant(1))) {
        return std::nullopt;
      }
      if (!chain[i].hi) {  // the image index: n < N
        if (!isUpper) {
          if (!s->without.isZero()) return std::nullopt;
          continue;
        }
        const Poly n = Poly::constant(0) - s->without;
        if (!onlyParams(n)) return std::nullopt;
        box.images = n;
        continue;
      }
      const std::size_t axis = spatial - 1 - i;  // outermost first
      // lower: digit + d >= 0; upper: digit + d − extent < 0.
      Poly d = isUpper ? s->without + *chain[i].hi : s->without;
      auto& slot = isUpper ? upper[axis] : lower[axis];
      if (slot && !(*slot == d)) return std::nullopt;
      slot = d;
    }
    if (!matched) return std::nullopt;
  }
  for (std::size_t a = 0; a < spatial; ++a) {
    if (!lower[a] || !upper[a] || !(*lower[a] == *upper[a])) return std::nullopt;
    box.offsets.push_back(*lower[a]);
    box.extents.push_back(*chain[spatial - 1 - a].hi);
  }
  if (box.images.isZero()) box.images = Poly::constant(kUnboundedDim);

  // The pointers: base + stride · (m + Σ d_k · (extents below k)) + c0 + j.
  auto q = substitute(p);
  if (!q) return std::nullopt;
  auto byCol = splitBy(*q, an.col());
  if (!byCol || !(byCol->with == Poly::constant(1))) return std::nullopt;
  auto byX = splitBy(byCol->without, chain[0].atom);
  if (!byX || !onlyParams(byX->with) || byX->with.isZero() || !an.free(byX->with)) return std::nullopt;
  box.pixelStride = byX->with;
  Poly expected = composed * box.pixelStride;
  Poly shift;
  Poly below = Poly::constant(1);
  for (std::size_t i = 0; i < spatial; ++i) {
    shift = shift + box.offsets[spatial - 1 - i] * below;
    below = below * *chain[i].hi;
  }
  const Poly c0 = byCol->without - expected - shift * box.pixelStride;
  if (!an.free(c0)) return std::nullopt;
  box.channelStart = c0;
  // Channels: c0 + j < C (and c0 + j >= 0, where written).
  for (const auto& [e, isUpper] : channelBounds) {
    if (!isUpper) {
      if (!(e == c0)) return std::nullopt;
      continue;
    }
    const Poly bound = c0 - e;
    if (!onlyParams(bound) || (!box.channels.isZero() && !(box.channels == bound))) return std::nullopt;
    box.channels = bound;
  }
  if (box.channels.isZero()) return std::nullopt;  // TMA would fill what the pointers read past C
  for (const Poly& d : box.offsets)
    if (!an.free(d)) return std::nullopt;
  box.rowStart = m0;
  box.rows = static_cast<int>(ptrs->type.shape[0]);
  box.cols = static_cast<int>(ptrs->type.shape[1]);
  if (box.rows > 1024) return std::nullopt;
  return box;
}

}  // namespace tilecc::ir
