#include "ir/GridExpr.h"

#include <algorithm>
#include <array>

namespace tilecc::ir {

namespace {

bool signedInt(const ElemType& e) { return e.isInt() && e.isSigned() && (e.bytes() == 4 || e.bytes() == 8); }

std::optional<GridExpr> of(const Kernel& k, const Value* v, int depth) {
  using K = GridExpr::Kind;
  if (depth > 32 || !signedInt(v->type.elem)) return std::nullopt;
  const Op* d = v->def;
  GridExpr e;
  if (!d) {  // a parameter (a loop's induction variable or carried value is not one)
    e.kind = K::Param;
    e.param = k.paramIndex(v);
    return e.param >= 0 ? std::optional<GridExpr>(e) : std::nullopt;
  }
  auto node = [&](K kind, std::size_t n) -> std::optional<GridExpr> {
    e.kind = kind;
    for (std::size_t i = 0; i < n; ++i) {
      auto a = of(k, d->operands[i], depth + 1);
      if (!a) return std::nullopt;
      e.args.push_back(std::move(*a));
    }
    return e;
  };
  switch (d->kind) {
    case OpKind::Constant:
      e.kind = K::Const;
      e.value = d->intValue;
      return e;
    case OpKind::ProgramId:
      e.kind = K::ProgramId;
      e.value = d->axis;
      return e;
    case OpKind::NumPrograms:
      if (d->count != 0) return std::nullopt;  // the programs a persistent kernel launched
      e.kind = K::NumPrograms;
      e.value = d->axis;
      return e;
    case OpKind::Arange:  // its elements: 0 to N - 1
      e.kind = K::Arange;
      e.value = v->type.shape.at(0);
      return e;
    case OpKind::Splat:  // a tile's elements take the values of their scalars
    case OpKind::Broadcast:
    case OpKind::ExpandDims:
    case OpKind::Trans:
    case OpKind::Hint: return of(k, d->operands[0], depth + 1);
    case OpKind::Convert: {
      const ElemType from = d->operands[0]->type.elem;
      if (!signedInt(from)) return std::nullopt;
      if (from.bytes() == v->type.elem.bytes()) return of(k, d->operands[0], depth + 1);
      if (from.bytes() < v->type.elem.bytes()) return node(K::I64, 1);
      return std::nullopt;  // a narrowing conversion wraps
    }
    case OpKind::Unary:
      if (d->unop == UnOp::Neg) return node(K::Neg, 1);
      return std::nullopt;
    case OpKind::Binary:
      switch (d->binop) {
        case BinOp::Add: return node(K::Add, 2);
        case BinOp::Sub: return node(K::Sub, 2);
        case BinOp::Mul: return node(K::Mul, 2);
        case BinOp::Div: return node(K::Div, 2);
        case BinOp::Rem: return node(K::Rem, 2);
        case BinOp::Min: return node(K::Min, 2);
        case BinOp::Max: return node(K::Max, 2);
        case BinOp::Shl: return node(K::Shl, 2);
        case BinOp::Shr: return node(K::Shr, 2);
        case BinOp::And: return node(K::And, 2);
        default: return std::nullopt;
      }
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<GridExpr> gridExprOf(const Kernel& k, const Value* v) { return of(k, v, 0); }

const char* gridExprName(GridExpr::Kind k) {
  static constexpr std::array<const char*, 18> names = {"const", "param", "add", "sub", "mul", "div", "rem", "cdiv", "min", "max",
                                                        "program_id", "num_programs", "shl", "shr", "and", "neg", "i64", "arange"};
  return names[static_cast<std::size_t>(k)];
}

std::string printGridExpr(const GridExpr& e, const std::function<std::string(int)>& param) {
  using K = GridExpr::Kind;
  switch (e.kind) {
    case K::Const: return std::to_string(e.value);
    case K::Param: return param(e.param);
    case K::ProgramId:
    case K::NumPrograms:
    case K::Arange: return std::string(gridExprName(e.kind)) + "(" + std::to_string(e.value) + ")";
    default: {
      std::string s = std::string(gridExprName(e.kind)) + "(";
      for (std::size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + printGridExpr(e.args[i], param);
      return s + ")";
    }
  }
}

namespace {

int precedence(GridExpr::Kind k) {
  using K = GridExpr::Kind;
  switch (k) {
    case K::Mul:
    case K::Div:
    case K::Rem: return 3;
    case K::Add:
    case K::Sub: return 2;
    case K::Shl:
    case K::Shr: return 1;
    case K::And: return 0;
    default: return 4;  // a leaf or a call
  }
}

}  // namespace

std::string describeGridExpr(const GridExpr& e, const std::function<std::string(int)>& param) {
  using K = GridExpr::Kind;
  auto sub = [&](std::size_t i, bool right) {
    const std::string t = describeGridExpr(e.args[i], param);
    const int c = precedence(e.args[i].kind), p = precedence(e.kind);
    return c < p || (right && c == p) ? "(" + t + ")" : t;
  };
  static const char* const ops[] = {"", "", " + ", " - ", " * ", " / ", " % "};
  switch (e.kind) {
    case K::Const: return std::to_string(e.value);
    case K::Param: return param(e.param);
    case K::ProgramId: return "program_id(" + std::to_string(e.value) + ")";
    case K::NumPrograms: return "num_programs(" + std::to_string(e.value) + ")";
    case K::Arange: return "arange<" + std::to_string(e.value) + ">()";
    case K::Add:
    case K::Sub:
    case K::Mul:
    case K::Div:
    case K::Rem: return sub(0, false) + ops[static_cast<int>(e.kind)] + sub(1, true);
    case K::Shl: return sub(0, false) + " << " + sub(1, true);
    case K::Shr: return sub(0, false) + " >> " + sub(1, true);
    case K::And: return sub(0, false) + " & " + sub(1, true);
    case K::Min:
    case K::Max:
    case K::Cdiv:
      return std::string(gridExprName(e.kind)) + "(" + describeGridExpr(e.args[0], param) + ", " + describeGridExpr(e.args[1], param) + ")";
    case K::Neg: return "-" + sub(0, true);
    case K::I64: return describeGridExpr(e.args[0], param);
  }
  return {};
}

void addGridCheck(Kernel& k, GridExpr e, const std::string& name, std::string why, unsigned line) {
  std::string what = describeGridExpr(e, [&](int i) { return k.params[static_cast<std::size_t>(i)]->name; });
  if (what.size() > 80) what = name;
  GridCheck c{std::move(e), what + " >= 0", std::move(why), line};
  if (std::find(k.gridChecks.begin(), k.gridChecks.end(), c) == k.gridChecks.end()) k.gridChecks.push_back(std::move(c));
}

std::vector<GridCheck> distinctGridChecks(const std::vector<GridCheck>& checks) {
  std::vector<GridCheck> out;
  for (const GridCheck& c : checks)
    if (std::none_of(out.begin(), out.end(), [&](const GridCheck& d) { return d.expr == c.expr; })) out.push_back(c);
  return out;
}

}  // namespace tilecc::ir
