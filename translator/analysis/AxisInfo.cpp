#include "analysis/AxisInfo.h"

#include "ir/GridExpr.h"
#include "ir/OpTraits.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

namespace tilecc::ir {

namespace {

std::int64_t pow2Divisor(std::int64_t v) {
  if (v == 0) return kMaxDivisibility;
  const std::int64_t p = v & -v;
  return p < 0 || p > kMaxDivisibility ? kMaxDivisibility : p;
}
std::int64_t gcd(std::int64_t a, std::int64_t b) { return std::min(a, b); }  // powers of two
std::int64_t cap(std::int64_t v) { return std::min(v, kMaxDivisibility); }

std::size_t rankOf(const Value* v) { return std::max<std::size_t>(1, v->type.shape.size()); }
std::int64_t extent(const Value* v, std::size_t d) { return v->type.isTile() ? v->type.shape[d] : 1; }

AxisInfo unknown(const Value* v) {
  const std::size_t r = rankOf(v);
  AxisInfo a{std::vector<std::int64_t>(r, 1), std::vector<std::int64_t>(r, 1), std::vector<std::int64_t>(r, 1)};
  if (!v->type.isTile()) a.constancy[0] = kMaxDivisibility;
  return a;
}

AxisInfo uniform(const Value* v, std::int64_t div) {
  AxisInfo a = unknown(v);
  for (std::size_t d = 0; d < a.divisibility.size(); ++d) {
    a.divisibility[d] = div;
    a.constancy[d] = v->type.isTile() ? extent(v, d) : kMaxDivisibility;
  }
  return a;
}

AxisInfo meet(const AxisInfo& a, const AxisInfo& b) {
  AxisInfo r = a;
  for (std::size_t d = 0; d < r.contiguity.size() && d < b.contiguity.size(); ++d) {
    r.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  return r;
}

class Analysis {
 public:
  Analysis(const Kernel& k, const ParamFacts& facts, std::set<const Value*>* assume, bool assumeParams)
      : k_(k), facts_(facts), assume_(assume), assumeParams_(assumeParams) {}

  std::map<const Value*, AxisInfo> run() {
    for (std::size_t i = 0; i < k_.params.size(); ++i) {
      const Value* p = k_.params[i];
      std::int64_t div = 1;
      if (p->type.elem.isPtr()) div = p->type.elem.pointeeType().bytes();  // T* is aligned to T
      if (auto it = facts_.find(static_cast<int>(i)); it != facts_.end()) {
        if (it->second == kEqualsOne) ones_.insert(p), nonneg_.insert(p);
        else div = std::max(div, it->second);
      }
      if (facts_.count(nonNegativeKey(static_cast<int>(i)))) nonneg_.insert(p);
      info_[p] = uniform(p, p->type.elem.isPtr() || p->type.elem.isInt() ? div : 1);
    }
    block(*k_.body);
    return info_;
  }

 private:
  const Kernel& k_;
  const ParamFacts& facts_;
  std::map<const Value*, AxisInfo> info_;
  std::set<const Value*> ones_;    // integers known to equal 1 (scalars and tiles of them)
  std::set<const Value*> nonneg_;  // integers known to be ≥ 0: / and % keep runs only for those
  std::set<const Value*>* assume_;  // program-uniform scalars assumed ≥ 0 (null: none may be)
  bool assumeParams_;               // integer parameters may be among them (the launcher checks)

  const AxisInfo& of(const Value* v) {
    auto it = info_.find(v);
    if (it == info_.end()) it = info_.emplace(v, unknown(v)).first;
    return it->second;
  }

  void block(const Block& b) {
    for (const auto& o : b.ops) op(*o);
  }

  void op(const Op& o);
  AxisInfo binary(const Op& o);
  bool isNonNegative(const Op& o) const;
  /// C++ rounds quotients toward zero: a run of consecutive negative values crosses a multiple
  /// of the divisor differently, so runs are kept only for non-negative (or unsigned) dividends.
  /// `gain`: whether the rule gives more for a non-negative dividend; only then may it assume.
  bool dividendNonNegative(const Op& o, bool gain) {
    if (!o.operands[0]->type.elem.isSigned() || nonneg_.count(o.operands[0])) return true;
    if (!assume_ || !gain) return false;
    std::set<const Value*> roots;
    const bool composed = nonNegativeIf(o.operands[0], roots, 0);
    if (composed && roots.empty()) return true;  // proven
    // The dividend itself where the launcher can bound it over the grid (and its elements): the
    // weakest fact (`start + arange + n >= 0` holds where `start >= 0` may not). Otherwise the
    // scalars it is computed from.
    if (assumeParams_ && gridExprOf(k_, o.operands[0])) roots = {o.operands[0]};
    else if (!composed) return false;
    assume_->insert(roots.begin(), roots.end());
    nonneg_.insert(roots.begin(), roots.end());
    return true;
  }
  /// Whether `v` is non-negative once the program-uniform scalars added to `roots` are (the
  /// rules of nonNegativeBy, walked back from `v`).
  bool nonNegativeIf(const Value* v, std::set<const Value*>& roots, int depth) const;
  bool mentionsNegativeConstant(const Value* v, int depth) const;
  /// 1 where `v` is a block index: computed from program ids through pure scalar ops, parameters
  /// and constants; 0 where from parameters and constants alone; -1 otherwise (a load, a loop).
  int blockIndex(const Value* v, int depth) const;
  /// The same through the rule of `v`'s defining op alone.
  bool nonNegativeIfComputed(const Value* v, std::set<const Value*>& roots, int depth) const;
};

/// The value of an integer constant, looking through splats; -1 when not one.
std::int64_t constantOf(const Value* v) {
  while (v->def && (v->def->kind == OpKind::Splat || v->def->kind == OpKind::Broadcast)) v = v->def->operands[0];
  return v->def && v->def->kind == OpKind::Constant && v->type.elem.isInt() ? v->def->intValue : -1;
}

/// The rules by which an op's integer result is non-negative, given whether its operands are:
/// `operand(i)` for operand i, `either()` for operand 0 or 1. Operands are asked last, only where
/// the op's kind and types allow the result (nonNegativeIf's assumptions grow as they are asked).
template <class Operand, class Either>
bool nonNegativeBy(const Op& o, Operand&& operand, Either&& either) {
  switch (o.kind) {
    case OpKind::Constant: return o.intValue >= 0;
    case OpKind::Arange:
    case OpKind::ProgramId:
    case OpKind::NumPrograms: return true;
    case OpKind::Splat:
    case OpKind::Broadcast:
    case OpKind::ExpandDims:
    case OpKind::Trans:
    case OpKind::Hint: return operand(0);
    case OpKind::Convert: {  // a widening integer conversion, or one that keeps the width and the signedness
      const ElemType from = o.operands[0]->type.elem, to = o.result()->type.elem;
      return from.isInt() && (to.bytes() > from.bytes() || (to.bytes() == from.bytes() && to.isSigned() == from.isSigned())) &&
             operand(0);
    }
    case OpKind::Binary:
      switch (o.binop) {
        case BinOp::Add:  // overflow aside, as everywhere in index arithmetic
        case BinOp::Mul:
        case BinOp::Div:
        case BinOp::Min: return operand(0) && operand(1);
        case BinOp::Rem: return operand(0);  // the sign of the dividend, whatever the divisor's (and 0 for 0 or -1)
        case BinOp::Shr: return operand(0);
        case BinOp::Max:
        case BinOp::And: return either();
        default: return false;
      }
    default: return false;
  }
}

bool Analysis::isNonNegative(const Op& o) const {
  auto nn = [&](std::size_t i) { return nonneg_.count(o.operands[i]) || !o.operands[i]->type.elem.isSigned(); };
  return nonNegativeBy(o, nn, [&] { return nn(0) || nn(1); });
}

bool Analysis::nonNegativeIf(const Value* v, std::set<const Value*>& roots, int depth) const {
  if (!v->type.elem.isSigned() || nonneg_.count(v) || roots.count(v)) return true;
  if (depth > 8 || !v->type.elem.isInt()) return false;
  const Op* d = v->def;
  if (d && d->kind == OpKind::Constant) return false;  // a negative constant: never assumed otherwise
  // Only in a variant whose launcher checks what it assumes (another variant serves the rest):
  // integer parameters as they are, and block indices of the kernel's top-level block (computed
  // from program ids, parameters and constants), which the launcher bounds over the grid. Never
  // a value of memory or of a loop.
  if (!assumeParams_) return nonNegativeIfComputed(v, roots, depth);
  const bool topLevel = d && d->parent == k_.body.get();
  if (!v->type.isTile() && topLevel) {
    // A temporary (`pid_n * BN`) is taken apart into the variables it is computed from, which
    // the check then names; a variable or parameter is assumed as it is. A value of the
    // arguments alone is taken apart into parameters where those may be assumed.
    // Never a value computed with a negative constant (`pid * -64`): its check would fail.
    const int index = blockIndex(v, 0);
    std::set<const Value*> parts = roots;
    if ((v->name.empty() || (assumeParams_ && index == 0)) && nonNegativeIfComputed(v, parts, depth)) roots = parts;
    else if (mentionsNegativeConstant(v, 0) || index != 1 || !gridExprOf(k_, v)) return false;
    else roots.insert(v);
    return true;
  }
  // An integer parameter.
  if (!d && !v->type.isTile() && k_.paramIndex(v) >= 0) {
    roots.insert(v);
    return true;
  }
  return nonNegativeIfComputed(v, roots, depth);
}

int Analysis::blockIndex(const Value* v, int depth) const {
  const Op* d = v->def;
  if (!d) return 0;  // a parameter
  if (depth > 16) return -1;
  if (d->kind == OpKind::ProgramId || d->kind == OpKind::NumPrograms) return 1;
  const OpTraits& t = traits(d->kind);
  if (!(t.pure && d->regions.empty() && (t.family == Family::Scalar || t.family == Family::Elementwise))) return -1;
  int found = 0;
  for (const Value* x : d->operands) {
    const int b = blockIndex(x, depth + 1);
    if (b < 0) return -1;
    found = std::max(found, b);
  }
  return found;
}

bool Analysis::mentionsNegativeConstant(const Value* v, int depth) const {
  const Op* d = v->def;
  if (!d || depth > 8) return false;
  if (d->kind == OpKind::Constant) return v->type.elem.isInt() && d->intValue < 0;
  for (const Value* x : d->operands)
    if (mentionsNegativeConstant(x, depth + 1)) return true;
  return false;
}

bool Analysis::nonNegativeIfComputed(const Value* v, std::set<const Value*>& roots, int depth) const {
  const Op* d = v->def;
  if (!d) return false;
  auto operand = [&](std::size_t i) { return nonNegativeIf(d->operands[i], roots, depth + 1); };
  auto either = [&] {  // the operand that needs fewer assumptions
    std::set<const Value*> a = roots, b = roots;
    const bool okA = nonNegativeIf(d->operands[0], a, depth + 1), okB = nonNegativeIf(d->operands[1], b, depth + 1);
    if (okA && (!okB || a.size() <= b.size())) roots = a;
    else if (okB) roots = b;
    return okA || okB;
  };
  return nonNegativeBy(*d, operand, either);
}

AxisInfo Analysis::binary(const Op& o) {
  const Value* r = o.result();
  const AxisInfo& a = of(o.operands[0]);
  const AxisInfo& b = of(o.operands[1]);
  AxisInfo x = unknown(r);
  const bool scalar = !r->type.isTile();
  for (std::size_t d = 0; d < x.contiguity.size(); ++d) {
    const std::int64_t ca = a.contiguity[d], cb = b.contiguity[d], da = a.divisibility[d], db = b.divisibility[d];
    const std::int64_t ka = a.constancy[d], kb = b.constancy[d];
    std::int64_t c = 1, dv = 1, k = gcd(ka, kb);
    switch (o.binop) {
      case BinOp::Add:
        c = std::max(gcd(ca, kb), gcd(ka, cb));
        dv = gcd(da, db);
        break;
      case BinOp::Sub:
        c = gcd(ca, kb);
        dv = gcd(da, db);
        break;
      case BinOp::Mul: {
        const bool aOne = ones_.count(o.operands[0]), bOne = ones_.count(o.operands[1]);
        c = bOne ? ca : aOne ? cb : 1;
        dv = bOne ? da : aOne ? db : cap(da * db);
        if (bOne) k = ka;
        else if (aOne) k = kb;
        break;
      }
      case BinOp::Div:
        // A run of consecutive values that starts at a multiple of D, divided by a value that
        // is the same along the run and a multiple of D, has one quotient (k / c for c a
        // multiple of 16: the tap of an implicit GEMM's column, constant over 16 channels).
        if (!scalar && kb >= extent(r, d) && dividendNonNegative(o, gcd(ca, gcd(da, db)) > k)) k = std::max(k, gcd(ca, gcd(da, db)));
        break;
      case BinOp::Rem:
        // Likewise the remainder stays consecutive over such a run (k % c: the channel,
        // contiguous over 16 channels).
        if (!scalar && kb >= extent(r, d) && dividendNonNegative(o, gcd(ca, gcd(da, db)) > 1)) c = gcd(ca, gcd(da, db));
        dv = gcd(da, db);  // x - q * c: both multiples of D, whatever the signs
        break;
      case BinOp::Min:
      case BinOp::Max:
        dv = gcd(da, db);  // one of the two, elementwise
        break;
      case BinOp::Shl:
        if (o.operands[1]->def && o.operands[1]->def->kind == OpKind::Constant && o.operands[1]->def->intValue >= 0 &&
            o.operands[1]->def->intValue < 31)
          dv = cap(da << o.operands[1]->def->intValue);
        break;
      case BinOp::And:  // x & (2^s - 1): the low bits, consecutive over runs that start at multiples of 2^s
        if (const std::int64_t m = constantOf(o.operands[1]); m > 0 && ((m + 1) & m) == 0) {
          c = scalar ? 1 : gcd(ca, gcd(da, m + 1));
          dv = gcd(da, m + 1);
        }
        break;
      case BinOp::Shr:  // x >> s rounds toward -inf: constant over runs that start at multiples of 2^s, any sign
        if (constantOf(o.operands[1]) >= 0 && constantOf(o.operands[1]) < 31) {
          const std::int64_t p = std::int64_t{1} << constantOf(o.operands[1]);
          dv = std::max<std::int64_t>(1, da / p);
          if (!scalar) k = std::max(k, gcd(ca, gcd(da, p)));
        }
        break;
      case BinOp::Lt:
      case BinOp::Le:
      case BinOp::Gt:
      case BinOp::Ge:
        // A run of consecutive values starting at a multiple of D compared with a value
        // divisible by D (constant along the run) gives one answer for the whole run.
        if (!scalar) {
          const std::int64_t ext = extent(r, d);
          if (kb >= ext) k = std::max(k, gcd(gcd(ca, da), db));
          if (ka >= ext) k = std::max(k, gcd(gcd(cb, db), da));
        }
        break;
      default: break;
    }
    if (!r->type.elem.isInt() && !r->type.elem.isPtr()) dv = 1;
    x.contiguity[d] = scalar ? 1 : c;
    x.divisibility[d] = dv;
    x.constancy[d] = scalar ? kMaxDivisibility : std::min<std::int64_t>(k, extent(r, d));
  }
  return x;
}

void Analysis::op(const Op& o) {
  const Value* r = o.result();
  // A 1 stays a 1 through splats, broadcasts, new axes, integer casts and hints; x * 1 is x.
  if (r && r->type.elem.isInt()) {
    const bool one =
        (o.kind == OpKind::Constant && o.intValue == 1) ||
        ((o.kind == OpKind::Splat || o.kind == OpKind::Broadcast || o.kind == OpKind::ExpandDims || o.kind == OpKind::Hint ||
          (o.kind == OpKind::Convert && o.operands[0]->type.elem.isInt())) &&
         ones_.count(o.operands[0])) ||
        (o.kind == OpKind::Binary && o.binop == BinOp::Mul && ones_.count(o.operands[0]) && ones_.count(o.operands[1]));
    if (one) ones_.insert(r);
    if (one || isNonNegative(o)) nonneg_.insert(r);
  }
  switch (o.kind) {
    case OpKind::Constant:
      info_[r] = uniform(r, r->type.elem.isFloat() ? 1 : pow2Divisor(o.intValue));
      return;
    case OpKind::Arange: {
      AxisInfo a = unknown(r);
      a.contiguity[0] = r->type.shape[0];
      a.divisibility[0] = kMaxDivisibility;  // runs start at 0
      info_[r] = a;
      return;
    }
    case OpKind::Splat: {
      AxisInfo a = uniform(r, of(o.operands[0]).divisibility[0]);
      info_[r] = a;
      return;
    }
    case OpKind::Broadcast: {
      AxisInfo a = of(o.operands[0]);
      for (std::size_t d = 0; d < a.contiguity.size(); ++d)
        if (o.operands[0]->type.shape[d] == 1 && r->type.shape[d] != 1) {
          a.contiguity[d] = 1;
          a.constancy[d] = r->type.shape[d];
        }
      info_[r] = a;
      return;
    }
    case OpKind::ExpandDims: {
      AxisInfo a = of(o.operands[0]);
      if (!o.operands[0]->type.isTile()) a = unknown(o.operands[0]);
      // Along the new axis every element starts a run: it must divide every value, and runs
      // of consecutive values (contiguity > 1) hold odd ones.
      std::int64_t div = kMaxDivisibility;
      for (std::size_t d = 0; d < a.divisibility.size(); ++d) div = a.contiguity[d] > 1 ? 1 : gcd(div, a.divisibility[d]);
      const auto pos = static_cast<long>(o.axis);
      a.contiguity.insert(a.contiguity.begin() + pos, 1);
      a.divisibility.insert(a.divisibility.begin() + pos, div);
      a.constancy.insert(a.constancy.begin() + pos, 1);
      info_[r] = a;
      return;
    }
    case OpKind::Trans: {
      AxisInfo a = of(o.operands[0]);
      std::swap(a.contiguity[0], a.contiguity[1]);
      std::swap(a.divisibility[0], a.divisibility[1]);
      std::swap(a.constancy[0], a.constancy[1]);
      info_[r] = a;
      return;
    }
    case OpKind::Convert:
    case OpKind::ConvertLayout: {
      const ElemType from = o.operands[0]->type.elem, to = r->type.elem;
      AxisInfo a = of(o.operands[0]);
      if (o.kind == OpKind::Convert && !((from.isInt() && to.isInt()) || (from.isPtr() && to.isPtr()))) {
        AxisInfo u = unknown(r);
        u.constancy = a.constancy;
        a = u;
      }
      info_[r] = a;
      return;
    }
    case OpKind::Hint: {
      AxisInfo a = of(o.operands[0]);
      if (o.hint == HintKind::MultipleOf) {
        for (auto& d : a.divisibility) d = std::max(d, cap(o.intValue));
      } else if (o.hint == HintKind::MaxContiguous) {
        auto& c = a.contiguity.back();
        c = std::max<std::int64_t>(c, std::min<std::int64_t>(o.intValue, extent(r, a.contiguity.size() - 1)));
      }
      info_[r] = a;
      return;
    }
    case OpKind::Binary: info_[r] = binary(o); return;
    case OpKind::Unary:
      // -x: the same multiples and runs of equal values; runs of consecutive ones count down.
      // (`p - n` is p + (-n): without this, subtracting an offset lost the pointer's alignment.)
      if (o.unop == UnOp::Neg && r->type.elem.isInt()) {
        AxisInfo a = of(o.operands[0]);
        for (auto& c : a.contiguity) c = 1;
        info_[r] = a;
      } else {
        info_[r] = unknown(r);
      }
      return;
    case OpKind::AddPtr: {
      const AxisInfo& p = of(o.operands[0]);
      const AxisInfo& off = of(o.operands[1]);
      const std::int64_t bytes = r->type.elem.pointeeType().bytes();
      AxisInfo a = unknown(r);
      for (std::size_t d = 0; d < a.contiguity.size(); ++d) {
        a.contiguity[d] = r->type.isTile() ? std::max(gcd(p.contiguity[d], off.constancy[d]), gcd(p.constancy[d], off.contiguity[d])) : 1;
        a.divisibility[d] = gcd(p.divisibility[d], cap(off.divisibility[d] * bytes));
        a.constancy[d] = gcd(p.constancy[d], off.constancy[d]);
      }
      info_[r] = a;
      return;
    }
    case OpKind::Select: {
      const AxisInfo& c = of(o.operands[0]);
      const AxisInfo& a = of(o.operands[1]);
      const AxisInfo& b = of(o.operands[2]);
      AxisInfo x = meet(a, b);
      for (std::size_t d = 0; d < x.contiguity.size(); ++d) {
        x.constancy[d] = gcd(x.constancy[d], c.constancy[d]);
        if (r->type.isTile() && c.constancy[d] < extent(r, d)) x.contiguity[d] = gcd(x.contiguity[d], c.constancy[d]);
      }
      info_[r] = x;
      return;
    }
    case OpKind::For: {
      const Block& body = *o.regions[0];
      // The induction variable: lower + k * step.
      AxisInfo iv = unknown(body.args[0]);
      iv.divisibility[0] = gcd(of(o.operands[0]).divisibility[0], of(o.operands[2]).divisibility[0]);
      info_[body.args[0]] = iv;
      const bool up = o.cmp == CmpPred::Lt || o.cmp == CmpPred::Le || o.cmp == CmpPred::Ne;
      if (up && nonneg_.count(o.operands[0]) && nonneg_.count(o.operands[2])) nonneg_.insert(body.args[0]);  // from lower up
      // Carried values: iterate to a fixed point from the initial values.
      for (std::size_t j = 0; j < o.results.size(); ++j) info_[body.args[j + 1]] = of(o.operands[j + 3]);
      for (int round = 0; round < 4; ++round) {
        block(body);
        bool changed = false;
        if (!body.ops.empty() && body.ops.back()->kind == OpKind::Yield)
          for (std::size_t j = 0; j < o.results.size(); ++j) {
            AxisInfo m = meet(info_[body.args[j + 1]], of(body.ops.back()->operands[j]));
            if (!(m == info_[body.args[j + 1]])) {
              info_[body.args[j + 1]] = m;
              changed = true;
            }
          }
        if (!changed) break;
        if (round == 3)
          for (std::size_t j = 0; j < o.results.size(); ++j) info_[body.args[j + 1]] = unknown(body.args[j + 1]);
      }
      block(body);
      for (std::size_t j = 0; j < o.results.size(); ++j) info_[o.results[j]] = info_[body.args[j + 1]];
      return;
    }
    case OpKind::If: {
      for (const auto& reg : o.regions) block(*reg);
      for (std::size_t j = 0; j < o.results.size(); ++j) {
        std::vector<AxisInfo> ys;
        for (const auto& reg : o.regions)
          if (!reg->ops.empty() && reg->ops.back()->kind == OpKind::Yield) ys.push_back(of(reg->ops.back()->operands[j]));
        AxisInfo m = ys.empty() ? unknown(o.results[j]) : ys[0];
        for (const auto& y : ys) m = meet(m, y);
        info_[o.results[j]] = m;
      }
      return;
    }
    default:
      for (const Value* v : o.results) info_[v] = unknown(v);
      for (const auto& reg : o.regions) block(*reg);
      return;
  }
}

}  // namespace

std::map<const Value*, AxisInfo> analyzeAxes(const Kernel& k, const ParamFacts& facts, std::set<const Value*>* assumeNonNegative,
                                             bool assumeParams) {
  return Analysis(k, facts, assumeNonNegative, assumeParams).run();
}

ParamFacts promisedFacts(const Kernel& k) {
  ParamFacts f;
  for (std::size_t i = 0; i < k.paramInfo.size(); ++i) {
    if (k.paramInfo[i].aligned) f[static_cast<int>(i)] = k.paramInfo[i].aligned;
    if (k.paramInfo[i].multipleOf) f[static_cast<int>(i)] = k.paramInfo[i].multipleOf;
  }
  return f;
}

ParamFacts variantFacts(const Kernel& k) {
  ParamFacts f = promisedFacts(k);
  for (const auto& [index, value] : k.assumed) f[value == kNonNegative ? nonNegativeKey(index) : index] = value;
  return f;
}

}  // namespace tilecc::ir
