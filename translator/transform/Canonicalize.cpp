#include "ir/Builder.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace tilecc::ir {

namespace {

/// Wraps v to the width and signedness of e (C++ conversion semantics).
std::int64_t wrap(std::int64_t v, ElemType e) {
  switch (e.kind) {
    case Scalar::Bool: return v != 0;
    case Scalar::I8: return static_cast<std::int8_t>(v);
    case Scalar::U8: return static_cast<std::uint8_t>(v);
    case Scalar::I32: return static_cast<std::int32_t>(v);
    case Scalar::U32: return static_cast<std::uint32_t>(v);
    default: return v;
  }
}

struct Folder {
  // A comparison of two constants as T compares them (IEEE for float: false with a NaN but for
  // !=); false where `op` is no comparison.
  template <class T>
  static bool compare(BinOp op, T a, T b, bool& r) {
    switch (op) {
      case BinOp::Eq: r = a == b; return true;
      case BinOp::Ne: r = a != b; return true;
      case BinOp::Lt: r = a < b; return true;
      case BinOp::Le: r = a <= b; return true;
      case BinOp::Gt: r = a > b; return true;
      case BinOp::Ge: r = a >= b; return true;
      default: return false;
    }
  }

  // Integer binary ops on constants, in the type's own width. Division by zero, shifts out of
  // range and signed overflow are left for run time.
  static bool intBinary(BinOp op, ElemType e, std::int64_t a, std::int64_t b, std::int64_t& r) {
    const bool u = !e.isSigned();
    const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
    switch (op) {
      case BinOp::Add: r = wrap(static_cast<std::int64_t>(ua + ub), e); break;
      case BinOp::Sub: r = wrap(static_cast<std::int64_t>(ua - ub), e); break;
      case BinOp::Mul: r = wrap(static_cast<std::int64_t>(ua * ub), e); break;
      case BinOp::Div:
        if (b == 0 || (!u && b == -1)) return false;
        r = u ? static_cast<std::int64_t>(ua / ub) : a / b;
        break;
      case BinOp::Rem:
        if (b == 0 || (!u && b == -1)) return false;
        r = u ? static_cast<std::int64_t>(ua % ub) : a % b;
        break;
      case BinOp::Shl:
      case BinOp::Shr: {
        // Counts in [0, width) only (outside, the result is the target's); a signed << that
        // overflows is left to run time like + and *.
        const int width = e.kind == Scalar::I64 || e.kind == Scalar::U64 ? 64 : 32;
        if (b < 0 || b >= width) return false;
        if (op == BinOp::Shr) {
          r = u ? static_cast<std::int64_t>(ua >> b) : a >> b;
          break;
        }
        if (!u && (a < 0 || a > (std::numeric_limits<std::int64_t>::max() >> b))) return false;
        r = wrap(static_cast<std::int64_t>(ua << b), e);
        if (!u && r != (a << b)) return false;
        break;
      }
      case BinOp::And: r = a & b; break;
      case BinOp::Or: r = a | b; break;
      case BinOp::Xor: r = a ^ b; break;
      case BinOp::Max: r = (u ? ua > ub : a > b) ? a : b; break;
      case BinOp::Min: r = (u ? ua < ub : a < b) ? a : b; break;
      default: {
        bool c;
        if (!(u ? compare(op, ua, ub, c) : compare(op, a, b, c))) return false;
        r = c;
        break;
      }
    }
    if (!isComparison(op) && (op == BinOp::Add || op == BinOp::Sub || op == BinOp::Mul) && !u) {
      // Signed overflow: leave to run time, where C++ and CUDA agree it is the user's business.
      const long double exact = op == BinOp::Add   ? static_cast<long double>(a) + b
                                : op == BinOp::Sub ? static_cast<long double>(a) - b
                                                   : static_cast<long double>(a) * b;
      if (exact != static_cast<long double>(r)) return false;
    }
    return true;
  }

  static bool fold(Op& o) {
    auto isConst = [](const Value* v) { return v->def && v->def->kind == OpKind::Constant; };
    Value* res = o.result();
    if (!res || !res->type.isValue()) return false;
    if (!res || res->type.isTile()) return false;
    if (o.kind == OpKind::Binary && isConst(o.operands[0]) && isConst(o.operands[1])) {
      const Op& a = *o.operands[0]->def;
      const Op& b = *o.operands[1]->def;
      const ElemType e = o.operands[0]->type.elem;
      if (e.isPtr()) return false;
      if (e.isFloat()) {
        if (e.kind != Scalar::F32) return false;
        const float x = static_cast<float>(a.floatValue), y = static_cast<float>(b.floatValue);
        // Comparisons fold too, so an `if` on one does, and nvcc sees no loop after an
        // `if (true) return` (fuzz seed 61: "loop is not reachable").
        if (bool c; compare(o.binop, x, y, c)) {
          o.kind = OpKind::Constant;
          o.operands.clear();
          o.intValue = c;
          o.floatValue = 0;
          return true;
        }
        float r;
        switch (o.binop) {
          case BinOp::Add: r = x + y; break;
          case BinOp::Sub: r = x - y; break;
          case BinOp::Mul: r = x * y; break;
          case BinOp::Div: r = x / y; break;
          default: return false;
        }
        o.kind = OpKind::Constant;
        o.operands.clear();
        o.floatValue = r;
        return true;
      }
      std::int64_t r;
      if (!intBinary(o.binop, e, a.intValue, b.intValue, r)) return false;
      o.kind = OpKind::Constant;
      o.operands.clear();
      o.intValue = r;
      o.floatValue = 0;
      return true;
    }
    if (o.kind == OpKind::Unary && isConst(o.operands[0])) {
      const Op& a = *o.operands[0]->def;
      const ElemType e = res->type.elem;
      if (e.isInt() || e.isBool()) {
        switch (o.unop) {
          case UnOp::Neg:
            if (e.isSigned() && a.intValue == (e.kind == Scalar::I64 ? INT64_MIN : e.kind == Scalar::I32 ? INT32_MIN : INT8_MIN))
              return false;  // overflow: left to run time, like the binary ops
            o.intValue = wrap(static_cast<std::int64_t>(0ull - static_cast<std::uint64_t>(a.intValue)), e);
            break;
          case UnOp::BitNot: o.intValue = wrap(~a.intValue, e); break;
          case UnOp::Not: o.intValue = a.intValue == 0; break;
          default: return false;
        }
      } else if (e.kind == Scalar::F32 && o.unop == UnOp::Neg) {
        o.floatValue = -a.floatValue;  // flips the sign bit, NaN and zero included
      } else {
        return false;
      }
      o.kind = OpKind::Constant;
      o.operands.clear();
      return true;
    }
    if (o.kind == OpKind::Convert && isConst(o.operands[0])) {
      const Op& a = *o.operands[0]->def;
      const ElemType from = o.operands[0]->type.elem, to = res->type.elem;
      if (from.isPtr() || to.isPtr()) return false;
      if (to.kind == Scalar::F16 || to.kind == Scalar::BF16) {
        // Kept as the float value; the printer rounds it to the type (as the host twin does).
        if (from.kind == Scalar::F32) o.floatValue = a.floatValue;
        else if (from.isInt() && from.kind != Scalar::U64) o.floatValue = static_cast<float>(a.intValue);
        else return false;
      } else if (from.isFloat() && to.kind == Scalar::F32) {
        if (from.kind != Scalar::F32) return false;
        o.floatValue = static_cast<float>(a.floatValue);
      } else if (!from.isFloat() && to.kind == Scalar::F32) {
        o.floatValue = from.kind == Scalar::U64 ? static_cast<float>(static_cast<std::uint64_t>(a.intValue))
                                                : static_cast<float>(a.intValue);
      } else if (!from.isFloat() && to.isInt()) {
        o.intValue = wrap(a.intValue, to);
      } else if (!from.isFloat() && to.isBool()) {
        o.intValue = a.intValue != 0;
      } else if (from.kind == Scalar::F32 && to.isBool()) {
        o.intValue = a.floatValue != 0;
      } else {
        return false;
      }
      o.kind = OpKind::Constant;
      o.operands.clear();
      return true;
    }
    return false;
  }
};

// Everything that makes two pure ops compute the same value. Float constants by their bits:
// NaN never equals itself and -0.0 equals 0.0 by value, yet each prints (and computes)
// differently.
using Key = std::tuple<int, int, int, int, int, std::int64_t, std::uint64_t, bool, std::vector<int>,
                       std::vector<std::string>, std::vector<int>>;

Key keyOf(const Op& o) {
  std::vector<int> ops, layouts;
  std::vector<std::string> types;
  for (const Value* v : o.operands) ops.push_back(v->id);
  for (const Value* v : o.results) {
    types.push_back(toString(v->type));
    layouts.push_back(v->layout);
  }
  std::uint64_t bits;
  std::memcpy(&bits, &o.floatValue, sizeof bits);
  const int sub = o.kind == OpKind::Binary ? static_cast<int>(o.binop)
                  : o.kind == OpKind::Unary ? static_cast<int>(o.unop)
                  : o.kind == OpKind::Reduce || o.kind == OpKind::Scan ? static_cast<int>(o.reduce)
                  : o.kind == OpKind::Hint ? static_cast<int>(o.hint)
                                           : 0;
  return {static_cast<int>(o.kind), sub, o.axis, static_cast<int>(o.transposed) | static_cast<int>(o.transposedA) << 1, o.count, o.intValue, bits, o.tf32, ops, types, layouts};
}

void replaceUses(Block& b, const std::map<Value*, Value*>& repl) {
  walk(b, [&](Op& o) {
    for (Value*& v : o.operands) {
      auto it = repl.find(v);
      if (it != repl.end()) v = it->second;
    }
  });
}

// An integer constant c, or a tile of it.
bool isIntConstant(const Value* v, std::int64_t c) {
  const Op* k = scalarConstant(v);
  return k && k->result()->type.elem.isInt() && k->intValue == c;
}

// x + 0, 0 + x, x - 0, x * 1, 1 * x on integers (not floats: -0.0 + 0.0 is 0.0); at the Tile
// level, a select with a constant condition.
Value* identity(const Op& o, bool tileLevel) {
  // `true ? 0u : 144u` of the source: the chosen operand (a constant left in a select reaches
  // nvcc, which then warns about the pointless comparison of `min(u, sel)` with zero: fuzz seed
  // 51). The GPU level's own selects (ring slots) are left as their passes wrote them.
  if (o.kind == OpKind::Select && o.results.size() == 1) {
    if (!tileLevel) return nullptr;
    const Op* c = scalarConstant(o.operands[0]);
    Value* pick = c ? o.operands[c->intValue != 0 ? 1 : 2] : nullptr;
    return pick && pick->type == o.result()->type ? pick : nullptr;
  }
  if (o.kind != OpKind::Binary || o.results.size() != 1) return nullptr;
  Value* a = o.operands[0];
  Value* b = o.operands[1];
  if (a->type.elem.isBool() && a->type == b->type && a->type == o.result()->type &&
      (o.binop == BinOp::And || o.binop == BinOp::Or)) {
    // x && true, x || false: x; x && false, x || true: the constant (masks written
    // `cond | !CAUSAL` for a template flag).
    const bool absorbing = o.binop == BinOp::Or;
    if (const Op* c = scalarConstant(b)) return (c->intValue != 0) == absorbing ? b : a;
    if (const Op* c = scalarConstant(a)) return (c->intValue != 0) == absorbing ? a : b;
    return nullptr;
  }
  if (!a->type.elem.isInt() || a->type != o.result()->type) return nullptr;
  switch (o.binop) {
    case BinOp::Add: return isIntConstant(b, 0) ? a : (isIntConstant(a, 0) && b->type == a->type) ? b : nullptr;
    case BinOp::Sub: return isIntConstant(b, 0) ? a : nullptr;
    case BinOp::Mul: return isIntConstant(b, 1) ? a : (isIntConstant(a, 1) && b->type == a->type) ? b : nullptr;
    // Unsigned: max(u, 0) is u, min(u, 0) is 0 (printed as they are, nvcc warns about the
    // pointless comparison with zero).
    case BinOp::Max:
      if (a->type.elem.isSigned()) return nullptr;
      return isIntConstant(b, 0) ? a : (isIntConstant(a, 0) && b->type == a->type) ? b : nullptr;
    case BinOp::Min:
      if (a->type.elem.isSigned()) return nullptr;
      return isIntConstant(b, 0) && b->type == a->type ? b : isIntConstant(a, 0) ? a : nullptr;
    default: return nullptr;
  }
}

// if (true) / if (false): the taken region's ops take the if's place (nvcc warns about the
// code after an if (true) { return; } as unreachable).
void inlineConstantIfs(Block& b, std::map<Value*, Value*>& repl) {
  for (std::size_t i = 0; i < b.ops.size(); ++i) {
    Op& o = *b.ops[i];
    // Operands that were results of an if inlined above now stand for what it yielded: the if
    // is gone, and its results' def with it (fuzz finding b039_k1: `if (true ? x : y)`, where
    // the outer if read the freed inner one as a constant and vanished, now and then).
    for (Value*& v : o.operands)
      for (auto it = repl.find(v); it != repl.end(); it = repl.find(v)) v = it->second;
    const Value* c = o.kind == OpKind::If ? o.operands[0] : nullptr;
    if (!c || !c->def || c->def->kind != OpKind::Constant) {
      for (auto& r : o.regions) inlineConstantIfs(*r, repl);
      continue;
    }
    Block& taken = *o.regions[c->def->intValue ? 0 : 1];
    std::vector<std::unique_ptr<Op>> ops = std::move(taken.ops);
    if (!ops.empty() && ops.back()->kind == OpKind::Yield) {
      for (std::size_t j = 0; j < o.results.size(); ++j) repl[o.results[j]] = ops.back()->operands[j];
      ops.pop_back();
    } else if (!o.results.empty()) {
      taken.ops = std::move(ops);  // a region that does not yield (it returns): keep the if
      for (auto& r : o.regions) inlineConstantIfs(*r, repl);
      continue;
    }
    for (auto& moved : ops) moved->parent = &b;
    const bool returns = !ops.empty() && ops.back()->kind == OpKind::Return;
    const std::size_t n = ops.size();
    for (Value* r : o.results) r->def = nullptr;  // the op goes: nothing may look at it through them
    b.ops.erase(b.ops.begin() + static_cast<long>(i));
    b.ops.insert(b.ops.begin() + static_cast<long>(i), std::make_move_iterator(ops.begin()), std::make_move_iterator(ops.end()));
    if (returns) b.ops.erase(b.ops.begin() + static_cast<long>(i + n), b.ops.end());  // unreachable after the return
    --i;  // the inlined ops come next (they may hold constant ifs themselves)
  }
}

// Results known without computing them: u < 0 and u >= 0 (and 0 > u, 0 <= u) on unsigned
// integers (nvcc warns about a pointless comparison of an unsigned integer with zero), the
// argmax of one element (it would read values it never compares), an elementwise op of two
// splats (a splat of the scalar op, where the two mean the same), and max/min of a splat.

/// The scalar a tile is a splat of (through replacements made earlier in the walk), or null.
Value* splatOf(Value* v, const std::map<Value*, Value*>& repl) {
  if (auto it = repl.find(v); it != repl.end()) v = it->second;
  return splatScalar(v);
}

/// Whether scalar op `op` of x and y means what the tile op does (1), or does from constants,
/// folded into `folded` (2), or not (0): tile integers wrap, divide by zero to 0 and clamp
/// shifts, scalars do not (C++).
int scalarSame(BinOp op, const Value* x, const Value* y, std::int64_t& folded) {
  const ElemType e = x->type.elem;
  if (isComparison(op)) return e.isInt() || e.isBool() || e.kind == Scalar::F32 ? 1 : 0;
  if (e.kind == Scalar::F32) return op == BinOp::Add || op == BinOp::Sub || op == BinOp::Mul || op == BinOp::Div ? 1 : 0;
  if (!e.isInt() && !e.isBool()) return 0;
  if (op == BinOp::And || op == BinOp::Or || op == BinOp::Xor || op == BinOp::Min || op == BinOp::Max) return 1;
  const bool consts = x->def && x->def->kind == OpKind::Constant && y->def && y->def->kind == OpKind::Constant;
  return consts && Folder::intBinary(op, e, x->def->intValue, y->def->intValue, folded) ? 2 : 0;
}

void foldKnownResults(Kernel& k, Block& b, std::map<Value*, Value*>& repl) {
  for (std::size_t i = 0; i < b.ops.size(); ++i) {
    Op& o = *b.ops[i];
    for (auto& r : o.regions) foldKnownResults(k, *r, repl);
    // o's result is the scalar `make` builds everywhere (a splat of it for a tile), inserted
    // before o; i moves past the new ops, back at o.
    auto becomes = [&](auto&& make) {
      Builder bld{k, &b, o.loc, o.result()->hint, static_cast<long>(i)};
      Value* c = make(bld);
      if (o.result()->type.isTile()) {
        c = bld.one(OpKind::Splat, {c}, o.result()->type);
        c->layout = o.result()->layout;
      }
      repl[o.result()] = c;
      i = static_cast<std::size_t>(bld.at);
    };
    auto constant = [&](std::int64_t value) { return [&, value](Builder& bld) { return bld.intConst(value, o.result()->type.elem); }; };
    // argmax/argmin along an axis of one element: index 0 (the values need not be read).
    if (o.kind == OpKind::Reduce && (o.reduce == ReduceKind::ArgMax || o.reduce == ReduceKind::ArgMin) &&
        o.operands[0]->type.shape.at(static_cast<std::size_t>(o.axis)) == 1) {
      becomes(constant(0));
      continue;
    }
    // `full(50) + 50`: computed once, and seen as a splat by max/min below.
    if (o.kind == OpKind::Binary && o.result()->type.isTile()) {
      Value* x = splatOf(o.operands[0], repl);
      Value* y = splatOf(o.operands[1], repl);
      std::int64_t folded = 0;
      if (const int same = x && y ? scalarSame(o.binop, x, y, folded) : 0) {
        if (same == 2) becomes(constant(folded));
        else becomes([&](Builder& bld) { return bld.binary(o.binop, x, y, o.result()->type.elem); });
        continue;
      }
    }
    // max/min of a splat: its value (no shuffles). Also what CUDA 13.0's ptxas needs: it
    // miscompiles `c - s` once a constant `c` went through a max of shuffles (min(c - s, u)
    // became min(s - c, u): tests/fuzz/results/2026-11-26-h100-gpu-batch-seed45.txt).
    if (o.kind == OpKind::Reduce && (o.reduce == ReduceKind::Max || o.reduce == ReduceKind::Min) && o.results.size() == 1) {
      if (Value* x = splatOf(o.operands[0], repl)) {
        becomes([&](Builder&) { return x; });
        continue;
      }
    }
    if (o.kind != OpKind::Binary || o.operands[0]->type.elem.isSigned() || !o.operands[0]->type.elem.isInt()) continue;
    if (isIntConstant(o.operands[1], 0) && (o.binop == BinOp::Lt || o.binop == BinOp::Ge)) becomes(constant(o.binop == BinOp::Ge));
    else if (isIntConstant(o.operands[0], 0) && (o.binop == BinOp::Gt || o.binop == BinOp::Le)) becomes(constant(o.binop == BinOp::Le));
  }
}

void cse(Block& b, std::map<Key, Value*> scope, std::map<Value*, Value*>& repl, bool tileLevel) {
  for (auto& op : b.ops) {
    for (Value*& v : op->operands) {
      auto it = repl.find(v);
      if (it != repl.end()) v = it->second;
    }
    Folder::fold(*op);
    if (Value* same = identity(*op, tileLevel)) {
      repl[op->result()] = same;
      continue;
    }
    if (traits(op->kind).pure && op->results.size() == 1 && op->regions.empty()) {
      Key key = keyOf(*op);
      auto it = scope.find(key);
      if (it != scope.end()) {
        repl[op->result()] = it->second;
        continue;
      }
      scope.emplace(std::move(key), op->result());
    }
    // A combine function is isolated from the kernel (it prints as a capture-less lambda):
    // nothing inside may stand for a value outside.
    const bool isolated = op->kind == OpKind::Reduce || op->kind == OpKind::Scan;
    for (auto& r : op->regions) cse(*r, isolated ? std::map<Key, Value*>{} : scope, repl, tileLevel);
  }
}

// Use counts, then one walk from the last op back: a dead op's operands lose a use, so whole
// dead chains go in one pass (no repeated sweeps: translation time stays linear).
void countUses(const Block& b, std::map<const Value*, int>& uses) {
  walk(b, [&](const Op& o) {
    for (const Value* v : o.operands) ++uses[v];
  });
}

// Whether carried value j of a loop is read only to compute its own next value (a pointer
// advanced each iteration that nothing loads from any more): the ops of the body that depend
// on it are pure, and their results reach nothing but each other and yield slot j. Those ops
// are removed (their uses uncounted); the caller drops the carried value.
bool dropSelfAdvance(Block& body, std::size_t j, std::map<const Value*, int>& uses) {
  Op* y = yieldOf(body);
  const Value* arg = body.args[j + 1];
  if (!y) return false;
  std::set<const Value*> derived{arg};
  std::vector<std::size_t> ops;  // indices in body order
  for (std::size_t i = 0; i < body.ops.size(); ++i) {
    const Op& o = *body.ops[i];
    bool reads = false;
    for (const Value* v : o.operands) reads = reads || derived.count(v);
    if (!reads || &o == y) continue;
    if (!traits(o.kind).pure || !o.regions.empty()) return false;
    for (const Value* r : o.results) derived.insert(r);
    ops.push_back(i);
  }
  // Reads from nested regions are not seen above: every use must be accounted for.
  std::map<const Value*, int> inside;
  for (std::size_t i : ops)
    for (const Value* v : body.ops[i]->operands) ++inside[v];
  for (std::size_t k = 0; k < y->operands.size(); ++k)
    if (derived.count(y->operands[k])) {
      if (k != j) return false;
      ++inside[y->operands[k]];
    }
  if (!derived.count(y->operands[j])) return false;
  for (const Value* v : derived)
    if (uses[v] != inside[v]) return false;
  for (std::size_t n = ops.size(); n-- > 0;) {
    for (const Value* v : body.ops[ops[n]]->operands) --uses[v];
    body.ops.erase(body.ops.begin() + static_cast<long>(ops[n]));
  }
  return true;
}

// Results of a loop or an if that nothing reads (and, for a loop, whose carried value the body
// never reads either, or reads only to advance it) leave the op: what computes them becomes
// dead. (nvcc warns about a variable that is set but never used.)
void dropUnusedResults(Op& o, std::map<const Value*, int>& uses) {
  if (o.kind != OpKind::For && o.kind != OpKind::If) return;
  for (std::size_t j = o.results.size(); j-- > 0;) {
    if (uses[o.results[j]] != 0) continue;
    if (o.kind == OpKind::For) {
      Block& body = *o.regions[0];
      Op* y = yieldOf(body);  // none when the body ends in a return
      if (uses[body.args[j + 1]] != 0 && !dropSelfAdvance(body, j, uses)) continue;
      --uses[o.operands[j + 3]];
      body.args.erase(body.args.begin() + static_cast<long>(j) + 1);
      o.operands.erase(o.operands.begin() + static_cast<long>(j) + 3);
      if (y) {
        --uses[y->operands[j]];
        y->operands.erase(y->operands.begin() + static_cast<long>(j));
      }
    } else {
      // A branch that returns instead gives no value: only the yielding ones change.
      for (auto& r : o.regions) {
        Op* y = yieldOf(*r);
        if (!y) continue;
        --uses[y->operands[j]];
        y->operands.erase(y->operands.begin() + static_cast<long>(j));
      }
    }
    o.results.erase(o.results.begin() + static_cast<long>(j));
  }
}

void dce(Block& b, std::map<const Value*, int>& uses) {
  for (std::size_t i = b.ops.size(); i-- > 0;) {
    Op& o = *b.ops[i];
    dropUnusedResults(o, uses);
    for (auto it = o.regions.rbegin(); it != o.regions.rend(); ++it) dce(**it, uses);
    dropUnusedResults(o, uses);  // what the regions' dead code read may be gone now
    bool dead = traits(o.kind).removable && (o.regions.empty() || traits(o.kind).pure) && !o.results.empty();
    for (const Value* v : o.results) dead = dead && uses[v] == 0;
    if (!dead) continue;
    for (const Value* v : o.operands) --uses[v];
    b.ops.erase(b.ops.begin() + static_cast<long>(i));
  }
}

// A loop-carried value that every iteration yields unchanged is the loop's input: drop it
// from the loop (its block argument and result become the input).
void dropInvariantCarried(Block& b, std::map<Value*, Value*>& repl) {
  for (auto& op : b.ops) {
    for (auto& r : op->regions) dropInvariantCarried(*r, repl);
    if (op->kind != OpKind::For) continue;
    Block& body = *op->regions[0];
    Op* y = body.ops.empty() || body.ops.back()->kind != OpKind::Yield ? nullptr : body.ops.back().get();
    if (!y) continue;
    for (std::size_t j = op->results.size(); j-- > 0;) {
      Value* arg = body.args[j + 1];
      if (y->operands[j] != arg) continue;
      Value* init = op->operands[j + 3];
      repl[arg] = init;
      repl[op->results[j]] = init;
      body.args.erase(body.args.begin() + static_cast<long>(j) + 1);
      op->results.erase(op->results.begin() + static_cast<long>(j));
      op->operands.erase(op->operands.begin() + static_cast<long>(j) + 3);
      y->operands.erase(y->operands.begin() + static_cast<long>(j));
    }
  }
}

}  // namespace

void canonicalize(Kernel& k) {
  std::map<Value*, Value*> repl;
  inlineConstantIfs(*k.body, repl);
  foldKnownResults(k, *k.body, repl);
  for (auto& [from, to] : repl)  // an inlined if may yield the result of another one
    for (auto it = repl.find(to); it != repl.end(); it = repl.find(to)) to = it->second;
  replaceUses(*k.body, repl);
  repl.clear();
  cse(*k.body, {}, repl, k.level == Level::Tile);
  replaceUses(*k.body, repl);
  std::map<Value*, Value*> invariant;
  dropInvariantCarried(*k.body, invariant);
  replaceUses(*k.body, invariant);
  std::map<const Value*, int> uses;
  countUses(*k.body, uses);
  dce(*k.body, uses);
}

}  // namespace tilecc::ir
