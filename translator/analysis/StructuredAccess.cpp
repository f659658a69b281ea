#include "analysis/StructuredAccess.h"

#include "ir/OpTraits.h"

#include <algorithm>
#include <set>

namespace tilecc::ir {

// ---- polynomials ----

bool Poly::IdLess::operator()(const std::vector<const Value*>& a, const std::vector<const Value*>& b) const {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](const Value* x, const Value* y) { return x->id < y->id; });
}

Poly Poly::constant(std::int64_t c) {
  Poly p;
  if (c) p.terms[{}] = c;
  return p;
}

Poly Poly::atom(const Value* v) {
  Poly p;
  p.terms[{v}] = 1;
  return p;
}

Poly Poly::operator+(const Poly& o) const {
  Poly r = *this;
  for (const auto& [m, c] : o.terms)
    if ((r.terms[m] += c) == 0) r.terms.erase(m);
  return r;
}

Poly Poly::operator-(const Poly& o) const { return *this + o * constant(-1); }

Poly Poly::operator*(const Poly& o) const {
  Poly r;
  for (const auto& [m1, c1] : terms)
    for (const auto& [m2, c2] : o.terms) {
      std::vector<const Value*> m = m1;
      m.insert(m.end(), m2.begin(), m2.end());
      std::sort(m.begin(), m.end(), [](const Value* x, const Value* y) { return x->id < y->id; });
      if ((r.terms[m] += c1 * c2) == 0) r.terms.erase(m);
    }
  return r;
}

std::optional<std::int64_t> Poly::constantValue() const {
  if (terms.empty()) return 0;
  if (terms.size() == 1 && terms.begin()->first.empty()) return terms.begin()->second;
  return std::nullopt;
}

std::optional<Poly> exactQuotient(const Poly& p, const Poly& d) {
  if (d.terms.size() != 1) return std::nullopt;
  const auto& [dm, dc] = *d.terms.begin();
  Poly r;
  for (const auto& [m, c] : p.terms) {
    if (dc == 0 || c % dc != 0) return std::nullopt;
    std::vector<const Value*> rest = m;
    for (const Value* x : dm) {
      auto it = std::find(rest.begin(), rest.end(), x);
      if (it == rest.end()) return std::nullopt;
      rest.erase(it);
    }
    r.terms[rest] = c / dc;
  }
  return r;
}

bool onlyParams(const Poly& p) {
  for (const auto& [m, c] : p.terms)
    for (const Value* a : m)
      if (a->def || a->owner || !a->type.elem.isInt()) return false;
  return true;
}

namespace {

// An affine function of the tile indices with polynomial coefficients; for pointer tiles the
// parameter they start at. `wraps`: axes whose index was reduced modulo a bound.
struct Form {
  const Value* base = nullptr;
  Poly c0;
  std::vector<Poly> coef;
  struct Wrap {
    int axis;
    Poly start, bound;
  };
  std::vector<Wrap> wraps;
  bool uniform() const {
    return std::all_of(coef.begin(), coef.end(), [](const Poly& p) { return p.isZero(); });
  }
};

// One comparison of a mask, normalised: coordinate `axis` < bound (upper) or >= bound (lower).
struct Bound {
  int axis;
  bool upper;
  Poly value;  // in coordinates: start_axis + i_axis < value (or >= value)
};

class Analysis {
 public:
  Analysis(const Kernel& k, const Op& loop, const Value* trip, const Value* one)
      : k_(k), loop_(loop), body_(*loop.regions[0]), trip_(trip), one_(one) {}

  std::optional<Form> form(const Value* v) {
    if (auto it = memo_.find(v); it != memo_.end()) return it->second;
    std::optional<Form> f = compute(v);
    // Along an axis of extent 1 the index is always 0: no coefficient (so a broadcast of the
    // value is constant along it).
    if (f)
      for (std::size_t a = 0; a < f->coef.size() && a < v->type.shape.size(); ++a)
        if (v->type.shape[a] == 1) f->coef[a] = Poly{};
    memo_[v] = f;
    return f;
  }

  // Conjuncts of a mask tile (axes mapped to the load's), as comparisons of forms.
  bool conjuncts(const Value* m, const std::vector<int>& axes, std::vector<std::pair<Form, BinOp>>& out) {
    const Op* d = m->def;
    if (!d) return false;
    switch (d->kind) {
      case OpKind::Constant: return d->intValue != 0;
      case OpKind::Splat: return conjuncts(d->operands[0], {}, out);
      case OpKind::Broadcast: return conjuncts(d->operands[0], axes, out);
      case OpKind::ExpandDims: {
        std::vector<int> inner = axes;
        inner.erase(inner.begin() + d->axis);
        return conjuncts(d->operands[0], inner, out);
      }
      case OpKind::Binary:
        if (d->binop == BinOp::And) return conjuncts(d->operands[0], axes, out) && conjuncts(d->operands[1], axes, out);
        if (d->binop == BinOp::Lt || d->binop == BinOp::Le || d->binop == BinOp::Gt || d->binop == BinOp::Ge) {
          auto a = form(d->operands[0]);
          auto b = form(d->operands[1]);
          if (!a || !b || a->base || b->base || !a->wraps.empty() || !b->wraps.empty()) return false;
          Form diff;
          diff.c0 = a->c0 - b->c0;
          diff.coef.assign(axes.empty() ? 0 : static_cast<std::size_t>(*std::max_element(axes.begin(), axes.end()) + 1), Poly{});
          for (std::size_t i = 0; i < a->coef.size(); ++i) {
            if (i >= axes.size()) return false;
            diff.coef[static_cast<std::size_t>(axes[i])] = a->coef[i] - b->coef[i];
          }
          out.push_back({diff, d->binop});
          return true;
        }
        return false;
      default: return false;
    }
  }

 private:
  const Kernel& k_;
  const Op& loop_;
  const Block& body_;
  const Value* trip_;
  const Value* one_;  // a parameter taken to be 1 (null: none beyond the variant's)
  std::map<const Value*, std::optional<Form>> memo_;

  bool invariant(const Value* v) const {
    if (v->def) return !within(v->def->parent, body_);
    if (v->owner) return !within(v->owner, body_);
    return true;  // a parameter
  }

  static Form scalar(Poly p) {
    Form f;
    f.c0 = std::move(p);
    return f;
  }

  std::optional<Form> compute(const Value* v) {
    const Op* d = v->def;
    if (v->owner == &body_) {  // the induction variable, or a carried pointer advanced by a fixed step
      const Value* iv = body_.args[0];
      auto lb = form(loop_.operands[0]);
      auto step = form(loop_.operands[2]);
      if (!lb || !step || !lb->coef.empty() || !step->coef.empty()) return std::nullopt;
      const Poly trip = Poly::atom(trip_);
      if (v == iv) return scalar(lb->c0 + trip * step->c0);
      const std::size_t j = static_cast<std::size_t>(std::find(body_.args.begin(), body_.args.end(), v) - body_.args.begin());
      // Carried pointers (tiles or scalars) and integers that each iteration advances by a step.
      const Value* by = carriedStep(body_, v);
      if (!by) return std::nullopt;
      auto init = form(loop_.operands[j + 2]);
      auto inc = form(by);
      if (!init || !inc || !inc->uniform() || !inc->wraps.empty()) return std::nullopt;
      Form f = *init;
      f.c0 = f.c0 + trip * inc->c0;
      return f;
    }
    if (!d) {
      if (!invariant(v)) return std::nullopt;
      if (v->type.isTile()) return std::nullopt;
      if (v->type.elem.isPtr()) {
        if (v->owner) return std::nullopt;
        Form f;
        f.base = v;
        return f;
      }
      if (!v->type.elem.isInt()) return std::nullopt;
      // A parameter this variant assumes equal to 1 (a unit stride the launcher checked).
      const int index = k_.paramIndex(v);
      for (const auto& [i, value] : k_.assumed)
        if (i == index && value == kEqualsOne) return scalar(Poly::constant(1));
      if (v == one_) return scalar(Poly::constant(1));
      return scalar(Poly::atom(v));
    }
    // A scalar the form cannot see into: an atom, defined before the loop or in its body (the
    // pipeliner recomputes those for a later iteration).
    auto atomOr = [&]() -> std::optional<Form> {
      if (v->type.isTile() || !v->type.elem.isInt() || !(invariant(v) || d->parent == &body_)) return std::nullopt;
      return scalar(Poly::atom(v));
    };
    switch (d->kind) {
      case OpKind::Constant:
        if (!v->type.elem.isInt()) return std::nullopt;
        return scalar(Poly::constant(d->intValue));
      case OpKind::Arange: {
        Form f;
        f.coef = {Poly::constant(1)};
        return f;
      }
      case OpKind::Hint: return form(d->operands[0]);
      case OpKind::Convert:
        if (!v->type.elem.isInt() || !d->operands[0]->type.elem.isInt() || v->type.elem.bytes() < d->operands[0]->type.elem.bytes())
          return atomOr();
        return form(d->operands[0]);
      case OpKind::Splat: {
        auto s = form(d->operands[0]);
        if (!s) return std::nullopt;
        s->coef.assign(v->type.shape.size(), Poly{});
        return s;
      }
      case OpKind::Broadcast: {
        auto s = form(d->operands[0]);
        if (!s) return std::nullopt;
        for (std::size_t a = 0; a < s->coef.size(); ++a)
          if (d->operands[0]->type.shape[a] == 1) s->coef[a] = Poly{};
        return s;
      }
      case OpKind::ExpandDims: {
        auto s = form(d->operands[0]);
        if (!s) return std::nullopt;
        s->coef.insert(s->coef.begin() + d->axis, Poly{});
        for (auto& w : s->wraps)
          if (w.axis >= d->axis) ++w.axis;
        return s;
      }
      case OpKind::AddPtr: {
        auto p = form(d->operands[0]);
        auto o = form(d->operands[1]);
        if (!p || !o || o->base || !p->base) return std::nullopt;
        return add(*p, *o, v->type.shape.size(), 1);
      }
      case OpKind::Binary: {
        auto a = form(d->operands[0]);
        auto b = form(d->operands[1]);
        if (!a || !b || a->base || b->base) return atomOr();
        const std::size_t r = v->type.shape.size();
        switch (d->binop) {
          case BinOp::Add: return add(*a, *b, r, 1);
          case BinOp::Sub: return add(*a, *b, r, -1);
          case BinOp::Mul: {
            if (!b->uniform()) std::swap(a, b);
            if (!b->uniform() || !b->wraps.empty()) return atomOr();
            Form f = *a;
            f.c0 = f.c0 * b->c0;
            for (auto& c : f.coef) c = c * b->c0;
            return f;
          }
          case BinOp::Shl: {
            auto s = b->c0.constantValue();
            if (!b->uniform() || !s || *s < 0 || *s > 30) return atomOr();
            Form f = *a;
            f.c0 = f.c0 * Poly::constant(std::int64_t{1} << *s);
            for (auto& c : f.coef) c = c * Poly::constant(std::int64_t{1} << *s);
            return f;
          }
          case BinOp::Rem: {
            // (start + i_axis) % bound on a tile: a wrapped index (see wrappedRowsUnobserved).
            if (!v->type.isTile() || !b->uniform() || !onlyParams(b->c0) || !a->wraps.empty()) return atomOr();
            int axis = -1;
            for (std::size_t i = 0; i < a->coef.size(); ++i) {
              if (a->coef[i].isZero()) continue;
              if (axis >= 0 || a->coef[i].constantValue() != 1) return std::nullopt;
              axis = static_cast<int>(i);
            }
            if (axis < 0) return std::nullopt;
            Form f = *a;
            f.wraps.push_back({axis, a->c0, b->c0});
            return f;
          }
          default: return atomOr();
        }
      }
      default: return atomOr();
    }
  }

  static std::optional<Form> add(const Form& a, const Form& b, std::size_t rank, std::int64_t sign) {
    Form f;
    f.base = a.base;
    const Poly s = Poly::constant(sign);
    f.c0 = a.c0 + b.c0 * s;
    f.coef.assign(rank, Poly{});
    for (std::size_t i = 0; i < rank; ++i) {
      if (i < a.coef.size()) f.coef[i] = f.coef[i] + a.coef[i];
      if (i < b.coef.size()) f.coef[i] = f.coef[i] + b.coef[i] * s;
    }
    f.wraps = a.wraps;
    f.wraps.insert(f.wraps.end(), b.wraps.begin(), b.wraps.end());
    return f;
  }
};


// A scalar that is never negative: program ids, non-negative constants, and sums, products,
// minima, maxima, remainders and quotients of such values.
bool nonNegative(const Value* v, int depth = 0) {
  const Op* d = v->def;
  if (!d || depth > 32 || v->type.isTile()) return false;
  switch (d->kind) {
    case OpKind::ProgramId:
    case OpKind::NumPrograms: return true;
    case OpKind::Constant: return d->intValue >= 0;
    case OpKind::Hint: return nonNegative(d->operands[0], depth + 1);
    case OpKind::Convert:  // widening only: a narrowing conversion may wrap
      return d->operands[0]->type.elem.isInt() && v->type.elem.bytes() >= d->operands[0]->type.elem.bytes() &&
             nonNegative(d->operands[0], depth + 1);
    case OpKind::Binary:
      switch (d->binop) {
        case BinOp::Add:
        case BinOp::Mul:
        case BinOp::Min:
        case BinOp::Div:  // a zero divisor is undefined behaviour: a non-negative one is positive
          return nonNegative(d->operands[0], depth + 1) && nonNegative(d->operands[1], depth + 1);
        case BinOp::Max: return nonNegative(d->operands[0], depth + 1) || nonNegative(d->operands[1], depth + 1);
        case BinOp::Rem:
        case BinOp::Shr: return nonNegative(d->operands[0], depth + 1);
        default: return false;
      }
    default: return false;
  }
}

// Every term has a non-negative coefficient and atoms that are never negative.
bool nonNegative(const Poly& p, const Value* trip) {
  for (const auto& [m, c] : p.terms) {
    if (c < 0) return false;
    for (const Value* a : m)
      if (a != trip && !nonNegative(a)) return false;
  }
  return true;
}

// p without its terms in `trip` (its value at the first iteration), when those terms only grow.
std::optional<Poly> atFirstIteration(const Poly& p, const Value* trip) {
  Poly r;
  for (const auto& [m, c] : p.terms) {
    if (std::find(m.begin(), m.end(), trip) == m.end()) {
      r.terms[m] = c;
      continue;
    }
    if (c < 0 || m.size() != 1) return std::nullopt;
  }
  return r;
}


// Splits c0 = Σ start_a · stride_a: a term goes to the first non-contiguous axis whose stride
// (one monomial) divides it, otherwise to the contiguous axis.
std::optional<std::vector<Poly>> splitStarts(const Poly& c0, const std::vector<Poly>& strides) {
  const std::size_t r = strides.size();
  std::vector<Poly> starts(r);
  for (const auto& [m, c] : c0.terms) {
    bool placed = false;
    for (std::size_t a = 0; a + 1 < r && !placed; ++a) {
      if (strides[a].terms.size() != 1) return std::nullopt;
      const auto& [sm, sc] = *strides[a].terms.begin();
      if (sc == 0 || c % sc != 0) continue;
      std::vector<const Value*> rest = m;
      bool divides = true;
      for (const Value* x : sm) {
        auto it = std::find(rest.begin(), rest.end(), x);
        if (it == rest.end()) {
          divides = false;
          break;
        }
        rest.erase(it);
      }
      if (!divides || (sm.empty() && m.empty())) continue;  // constants go to the contiguous axis
      Poly t;
      t.terms[rest] = c / sc;
      starts[a] = starts[a] + t;
      placed = true;
    }
    if (!placed) {
      Poly t;
      t.terms[m] = c;
      starts[r - 1] = starts[r - 1] + t;
    }
  }
  return starts;
}

// Rows `axis` of `load` whose coordinate start + i reaches `bound` are never observed: every
// value computed from them (through elementwise ops, selects by conditions on them too (a
// leaky ReLU's `where(x >= 0, x, a * x)`), broadcasts, the matching side of dot,
// reductions along other axes, loops and ifs) is stored only under a mask that requires
// start' + i < bound along the same rows.
bool wrappedRowsUnobserved(const Kernel& k, Analysis& an, const Op& load, int axis, const Poly& start, const Poly& bound) {
  auto users = collectUsers(const_cast<Block&>(*k.body));
  std::set<std::pair<const Value*, int>> seen;
  std::vector<std::pair<const Value*, int>> work{{load.result(), axis}};
  auto push = [&](const Value* v, int a) {
    if (seen.insert({v, a}).second) work.push_back({v, a});
  };
  auto storeMasked = [&](const Op& st, int a) {
    if (st.operands.size() < 3) return false;
    std::vector<int> axes(st.operands[0]->type.shape.size());
    for (std::size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<int>(i);
    // Every comparison found is a conjunct of the mask, also where other parts were not understood.
    std::vector<std::pair<Form, BinOp>> cs;
    an.conjuncts(st.operands[2], axes, cs);
    for (const auto& [f, op] : cs) {
      if (op != BinOp::Lt || static_cast<std::size_t>(a) >= f.coef.size()) continue;
      if (f.coef[static_cast<std::size_t>(a)].constantValue() != 1) continue;
      bool only = true;
      for (std::size_t i = 0; i < f.coef.size(); ++i)
        if (static_cast<int>(i) != a && !f.coef[i].isZero()) only = false;
      if (only && f.c0 == start - bound) return true;
    }
    return false;
  };
  while (!work.empty()) {
    auto [v, a] = work.back();
    work.pop_back();
    for (const Op* u : users[v]) {
      switch (u->kind) {
        case OpKind::Binary:
        case OpKind::Unary:
        case OpKind::Fma:
        case OpKind::Select:
        case OpKind::Convert:
        case OpKind::Broadcast:
        case OpKind::Hint:
          if (!u->result()->type.isTile()) return false;
          push(u->result(), a);
          break;
        case OpKind::ExpandDims: push(u->result(), a >= u->axis ? a + 1 : a); break;
        case OpKind::Trans: push(u->result(), 1 - a); break;
        case OpKind::Reduce:
          if (u->axis == a || !u->result()->type.isTile()) return false;
          push(u->result(), a > u->axis ? a - 1 : a);
          break;
        case OpKind::Dot:
          if (u->operands[0] == v && a == 0) push(u->result(), 0);
          else if (u->operands[1] == v && a == 1) push(u->result(), 1);
          else if (u->operands[2] == v) push(u->result(), a);
          else return false;
          break;
        case OpKind::For: {
          const Block& b = *u->regions[0];
          for (std::size_t i = 3; i < u->operands.size(); ++i)
            if (u->operands[i] == v) {
              push(b.args[i - 2], a);
              push(u->results[i - 3], a);
            }
          break;
        }
        case OpKind::Yield: {
          const Op* owner = u->parent->parent;
          for (std::size_t i = 0; i < u->operands.size(); ++i)
            if (u->operands[i] == v) {
              push(owner->results[i], a);
              if (owner->kind == OpKind::For) push(owner->regions[0]->args[i + 1], a);
            }
          break;
        }
        case OpKind::Store:
          if (u->operands[1] != v || !storeMasked(*u, a)) return false;
          break;
        // The GPU level: operands staged in shared memory for mma / wgmma.
        case OpKind::SharedStore:
          if (u->operands[1] == v) break;  // a write into the buffer the rows went to
          push(u->operands[1], u->transposed ? 1 - a : a);
          break;
        case OpKind::SharedLoad:
          if (u->result()->type.shape != v->type.shape) return false;
          push(u->result(), a);
          break;
        case OpKind::Mma:
        case OpKind::Wgmma:  // A's rows are its buffer's axis 1 when it lies as [K][M]
          if (u->operands[0] == v && a == (u->transposedA ? 1 : 0)) push(u->result(), 0);
          else if (u->operands[1] == v && a == (u->transposed ? 0 : 1)) push(u->result(), 1);
          else if (u->operands[2] == v) push(u->result(), a);
          else return false;
          break;
        case OpKind::WgmmaWait:
          for (std::size_t i = 0; i < u->operands.size(); ++i)
            if (u->operands[i] == v) push(u->results[i], a);
          break;
        default: return false;
      }
    }
  }
  return true;
}

}  // namespace

namespace {

// The pointers, mask (or null) and shape of a load or a store.
struct Accessed {
  const Value* ptrs;
  const Value* mask;
  std::vector<int> shape;
};
Accessed accessed(const Op& o) {
  if (o.kind == OpKind::Store) return {o.operands[0], o.operands.size() >= 3 ? o.operands[2] : nullptr, o.operands[1]->type.shape};
  return {o.operands[0], o.operands.size() >= 2 ? o.operands[1] : nullptr, o.result()->type.shape};
}

// `outerAxes`: whether a term with a parameter factor that is no tile axis's stride starts an
// outer axis of the tensor (a head offset), or stays on the tile's axes (a split-K slice start
// `program_id(2) * k_per_split` along the contiguous axis, which its mask bounds there).
// `transposed`: a rank-2 tile kept transposed in shared memory ([C][R] for an [R][C] tile, the
// tile's axis 0 contiguous in memory): the box in the buffer's order.
std::optional<StructuredBox> boxOf(const Kernel& k, const Op& loop, const Op& load, const Value* trip, const Value* one,
                                   bool outerAxes, bool transposed) {
  Analysis an(k, loop, trip, one);
  Accessed acc = accessed(load);
  const Value* ptrs = acc.ptrs;
  const std::size_t r = ptrs->type.shape.size();
  auto pf = an.form(ptrs);
  if (!pf || !pf->base || r < 1 || (transposed && r != 2)) return std::nullopt;
  // From here on, axes are the box's (the buffer's); the tile's are swapped for a transposed one.
  if (transposed) {
    pf->coef.resize(2);
    std::swap(pf->coef[0], pf->coef[1]);
    std::swap(acc.shape[0], acc.shape[1]);
  }
  auto tileAxis = [&](int a) { return transposed ? 1 - a : a; };
  if (load.kind == OpKind::Load && load.operands.size() >= 3 && !isZeroConstant(load.operands[2])) return std::nullopt;
  if (load.kind == OpKind::Store && !pf->wraps.empty()) return std::nullopt;  // stores write every row they address
  StructuredBox box;
  box.baseParam = k.paramIndex(pf->base);
  if (box.baseParam >= static_cast<int>(k.params.size())) return std::nullopt;
  // Strides: the contiguous last axis, the others parameters (one monomial each).
  if (pf->coef[r - 1].constantValue() != 1) return std::nullopt;
  for (std::size_t a = 0; a + 1 < r; ++a)
    if (pf->coef[a].isZero() || !onlyParams(pf->coef[a]) || pf->coef[a].terms.size() != 1) return std::nullopt;
  box.strides = pf->coef;
  // Terms with a parameter factor that is no tile axis's stride (a batch or head offset,
  // `program_id(1) * stride_head`) are outer axes of the tensor, one element wide in the box.
  std::set<const Value*> tileStrides;
  for (const Poly& st : box.strides)
    for (const auto& [m, c] : st.terms) tileStrides.insert(m.begin(), m.end());
  Poly rest;
  std::vector<const Value*> outer;  // their strides, by first appearance
  std::vector<Poly> outerStarts;
  for (const auto& [m, c] : pf->c0.terms) {
    auto it = std::find_if(m.begin(), m.end(), [&](const Value* a) {
      return outerAxes && !tileStrides.count(a) && a->type.elem.isInt() && k.paramIndex(a) >= 0;
    });
    Poly t;
    if (it == m.end()) {
      t.terms[m] = c;
      rest = rest + t;
      continue;
    }
    std::vector<const Value*> quotient = m;
    quotient.erase(quotient.begin() + (it - m.begin()));
    t.terms[quotient] = c;
    const auto o = static_cast<std::size_t>(std::find(outer.begin(), outer.end(), *it) - outer.begin());
    if (o == outer.size()) {
      outer.push_back(*it);
      outerStarts.emplace_back();
    }
    outerStarts[o] = outerStarts[o] + t;
  }
  auto starts = splitStarts(rest, box.strides);
  if (!starts) return std::nullopt;
  box.starts = *starts;
  // Bounds from the mask, and from wrapped rows.
  std::vector<Bound> bounds;
  if (acc.mask) {
    std::vector<int> axes(r);
    for (std::size_t i = 0; i < r; ++i) axes[i] = static_cast<int>(i);
    std::vector<std::pair<Form, BinOp>> cs;
    if (!an.conjuncts(acc.mask, axes, cs)) return std::nullopt;
    for (auto& [f, op] : cs) {
      if (transposed) {  // a conjunct's coefficients stop at the last axis it depends on
        f.coef.resize(2);
        std::swap(f.coef[0], f.coef[1]);
      }
      // f = c0 + Σ coef_a i_a compared with 0: exactly one axis with coefficient ±1.
      int axis = -1;
      std::int64_t c = 0;
      for (std::size_t i = 0; i < f.coef.size(); ++i) {
        if (f.coef[i].isZero()) continue;
        auto v = f.coef[i].constantValue();
        if (axis >= 0 || !v || (*v != 1 && *v != -1)) return std::nullopt;
        axis = static_cast<int>(i);
        c = *v;
      }
      if (axis < 0) return std::nullopt;
      // Normalise to  i_axis + e (<, <=, >, >=) 0.
      Poly e = c == 1 ? f.c0 : Poly::constant(0) - f.c0;
      BinOp o = op;
      if (c == -1) o = op == BinOp::Lt ? BinOp::Gt : op == BinOp::Le ? BinOp::Ge : op == BinOp::Gt ? BinOp::Lt : BinOp::Le;
      const Poly& s = box.starts[static_cast<std::size_t>(axis)];
      // coordinate = s + i: i + e < 0  ⇔  coordinate < s − e.
      if (o == BinOp::Lt) bounds.push_back({axis, true, s - e});
      if (o == BinOp::Le) bounds.push_back({axis, true, s - e + Poly::constant(1)});
      if (o == BinOp::Ge) bounds.push_back({axis, false, s - e});
      if (o == BinOp::Gt) bounds.push_back({axis, false, s - e + Poly::constant(1)});
    }
  }
  for (const auto& w : pf->wraps) {
    const int axis = tileAxis(w.axis);
    if (!(w.start == box.starts[static_cast<std::size_t>(axis)])) return std::nullopt;
    if (!wrappedRowsUnobserved(k, an, load, w.axis, w.start, w.bound)) return std::nullopt;
    bounds.push_back({axis, true, w.bound});
  }
  box.dims.assign(r, Poly{});
  // The contiguous coordinate may be bounded by P + R with P parameters and R a multiple of P
  // (`w + tap·C + c0 + j` with `c0 + j < C`): rows of P elements, R / P of them before the start,
  // so a middle axis of stride P starts at R / P (its extent 1 in the box).
  std::optional<Poly> middleStart, rowLength;
  // A start not provably >= 0 is checked once per program at its first iteration, or at each
  // copy where it depends on scalars computed in the loop.
  const Block& body = *loop.regions[0];
  auto checkable = [&](const Poly& start) {
    if (nonNegative(start, trip)) return true;
    for (const auto& [m, c] : start.terms)
      for (const Value* x : m)
        if (x->def && within(x->def->parent, body)) {
          box.iterChecks.push_back(start);
          return true;
        }
    auto first = atFirstIteration(start, trip);
    if (first) box.checks.push_back(*first);
    return first.has_value();
  };
  for (std::size_t a = 0; a < r; ++a) {
    bool upper = false, lower = false;
    for (Bound& b : bounds) {
      if (b.axis != static_cast<int>(a)) continue;
      if (b.upper) {
        if (a + 1 == r && !onlyParams(b.value)) {
          Poly params, rest;
          for (const auto& [m, c] : b.value.terms) {
            Poly t;
            t.terms[m] = c;
            if (onlyParams(t)) params = params + t;
            else rest = rest + t;
          }
          auto middle = exactQuotient(rest, params);
          if (!middle) return std::nullopt;
          if (!middleStart) {
            middleStart = *middle;
            rowLength = params;
            box.starts[a] = box.starts[a] - rest;
          } else if (!(*middleStart == *middle) || !(*rowLength == params)) {
            return std::nullopt;
          }
          b.value = params;
        }
        if (!onlyParams(b.value) || (upper && !(box.dims[a] == b.value))) return std::nullopt;
        box.dims[a] = b.value;
        upper = true;
      } else {
        if (!b.value.isZero()) return std::nullopt;  // a box starts at the tensor's origin
        lower = true;
      }
    }
    // Unmasked above: the tile's own extent from a constant start, else as far as coordinates go
    // (the box then reads exactly what the pointers read).
    if (!upper) {
      const auto c = box.starts[a].constantValue();
      box.dims[a] = c && *c >= 0 ? Poly::constant(*c + acc.shape[a]) : Poly::constant(kUnboundedDim);
    }
    // Unmasked below, the coordinate must be >= 0 (TMA fills negative ones with zeros, the
    // pointers would read before the tensor): proven, or checked.
    if (!lower && !checkable(box.starts[a])) return std::nullopt;
  }
  box.extents.assign(acc.shape.begin(), acc.shape.end());
  if (middleStart) {
    if (!checkable(*middleStart)) return std::nullopt;
    box.starts.insert(box.starts.end() - 1, *middleStart);
    box.strides.insert(box.strides.end() - 1, *rowLength);
    box.dims.insert(box.dims.end() - 1, Poly::constant(kUnboundedDim));
    box.extents.insert(box.extents.end() - 1, 1);
  }
  // The outer axes first: one element of each.
  for (std::size_t o = outer.size(); o-- > 0;) {
    if (!checkable(outerStarts[o])) return std::nullopt;
    box.starts.insert(box.starts.begin(), outerStarts[o]);
    box.strides.insert(box.strides.begin(), Poly::atom(outer[o]));
    box.dims.insert(box.dims.begin(), Poly::constant(kUnboundedDim));
    box.extents.insert(box.extents.begin(), 1);
  }
  if (box.starts.size() > 5) return std::nullopt;  // TMA boxes have at most 5 dimensions
  return box;
}

// A box with outer axes where the mask allows, else with every term on the tile's axes.
std::optional<StructuredBox> boxEither(const Kernel& k, const Op& loop, const Op& load, const Value* trip, const Value* one,
                                       bool transposed) {
  if (auto box = boxOf(k, loop, load, trip, one, true, transposed)) return box;
  return boxOf(k, loop, load, trip, one, false, transposed);
}

}  // namespace

std::optional<StructuredBox> structuredBox(const Kernel& k, const Op& loop, const Op& load, const Value* trip, bool transposed) {
  if (auto box = boxEither(k, loop, load, trip, nullptr, transposed)) return box;
  // Contiguous where a stride parameter is 1 (Triton's stride_bn): a box in a variant that
  // assumes it, which the launcher checks.
  Analysis an(k, loop, trip, nullptr);
  auto pf = an.form(accessed(load).ptrs);
  if (!pf || pf->coef.empty() || (transposed && pf->coef.size() != 2)) return std::nullopt;
  const Poly& inner = transposed ? pf->coef.front() : pf->coef.back();  // the contiguous axis in memory
  if (inner.terms.size() != 1) return std::nullopt;
  const auto& [m, c] = *inner.terms.begin();
  if (c != 1 || m.size() != 1 || k.paramIndex(m[0]) < 0) return std::nullopt;
  auto box = boxEither(k, loop, load, trip, m[0], transposed);
  if (box) box->unitParam = k.paramIndex(m[0]);
  return box;
}

}  // namespace tilecc::ir
