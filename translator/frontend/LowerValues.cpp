// Types, constants and conversions: C++ types to element and tile types, constant folding
// through Clang's evaluator, and the promotions of contract v1.
#include "frontend/Lowerer.h"

namespace tilecc::lowering {

std::optional<ElemType> Lowerer::elemOf(QualType t) {
  t = t.getCanonicalType().getNonReferenceType().getUnqualifiedType();
  if (const auto* bt = t->getAs<BuiltinType>()) {
    switch (bt->getKind()) {
      case BuiltinType::Bool: return ElemType::of(Scalar::Bool);
      case BuiltinType::Char_S:
      case BuiltinType::SChar: return ElemType::of(Scalar::I8);
      case BuiltinType::Char_U:
      case BuiltinType::UChar: return ElemType::of(Scalar::U8);
      case BuiltinType::Int: return ElemType::of(Scalar::I32);
      case BuiltinType::UInt: return ElemType::of(Scalar::U32);
      case BuiltinType::Long:
      case BuiltinType::LongLong: return ElemType::of(Scalar::I64);
      case BuiltinType::ULong:
      case BuiltinType::ULongLong: return ElemType::of(Scalar::U64);
      case BuiltinType::Float:
      case BuiltinType::Double:  // double is float in kernel code
      case BuiltinType::LongDouble: return ElemType::of(Scalar::F32);
      default: return std::nullopt;
    }
  }
  if (const auto* et = t->getAs<EnumType>()) return elemOf(et->getDecl()->getIntegerType());
  if (isTileccRecord(t, "half")) return ElemType::of(Scalar::F16);
  if (isTileccRecord(t, "bfloat16")) return ElemType::of(Scalar::BF16);
  if (const auto* pt = t->getAs<PointerType>()) {
    QualType p = pt->getPointeeType();
    auto e = elemOf(p);
    if (!e || e->isPtr()) return std::nullopt;
    return ElemType::pointerTo(e->kind, p.isConstQualified());
  }
  return std::nullopt;
}

std::optional<Type> Lowerer::typeOf(QualType t) {
  if (isTileccRecord(t, "tile")) {
    const TemplateArgumentList* args = recordArgs(t);
    auto e = elemOf(args->get(0).getAsType());
    if (!e) return std::nullopt;
    std::vector<int> shape;
    for (const auto& a : args->get(1).getPackAsArray()) shape.push_back(static_cast<int>(a.getAsIntegral().getExtValue()));
    return Type::tile(*e, shape);
  }
  if (auto e = elemOf(t)) return Type::scalar(*e);
  return std::nullopt;
}

Type Lowerer::typeOrError(QualType t, SourceLocation loc) {
  if (auto ty = typeOf(t)) return *ty;
  error(loc, "type '" + t.getAsString() + "' is not supported in kernel code (element types are bool, int8_t, "
                                          "uint8_t, int, unsigned, int64_t, float, half and bfloat16)");
}

Value* Lowerer::toShape(Value* v, const std::vector<int>& shape) {
  if (v->type.shape == shape) return v;
  if (!v->type.isTile()) return b_.one(OpKind::Splat, {v}, Type::tile(v->type.elem, shape));
  while (v->type.rank() < static_cast<int>(shape.size())) {  // NumPy: align to the right
    std::vector<int> s = v->type.shape;
    s.insert(s.begin(), 1);
    Value* e = b_.one(OpKind::ExpandDims, {v}, v->type.withShape(s));
    e->def->axis = 0;
    v = e;
  }
  if (v->type.shape == shape) return v;
  return b_.one(OpKind::Broadcast, {v}, v->type.withShape(shape));
}

ElemType Lowerer::computeElem(const std::vector<Value*>& ops) {
  std::optional<ElemType> tileElem;
  bool floatScalar = false, wideScalar = false;
  for (Value* v : ops) {
    if (v->type.isTile()) {
      if (!tileElem || (tileElem->isInt() && v->type.elem.isInt() && v->type.elem.bytes() > tileElem->bytes()))
        tileElem = v->type.elem;
    } else if (v->type.elem.isFloat()) {
      floatScalar = true;
    } else if (v->type.elem.isInt() && v->type.elem.bytes() == 8) {
      wideScalar = true;
    }
  }
  if (!tileElem) return ops[0]->type.elem;
  if (tileElem->isInt() && floatScalar) return ElemType::of(Scalar::F32);
  if (tileElem->isInt() && tileElem->bytes() < 8 && wideScalar) return ElemType::of(Scalar::I64);
  return *tileElem;
}

std::int64_t Lowerer::constInt(const Expr* e) {
  Expr::EvalResult r;
  if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx_)) error(e->getBeginLoc(), "this must be a constant expression");
  return r.Val.getInt().getExtValue();
}

// Operators that evaluate every operand: one that is not a constant makes them not constant.
static std::vector<const Expr*> evaluatedOperands(const Expr* e) {
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    if (b->isLogicalOp() || b->isCommaOp() || b->isAssignmentOp()) return {};
    return {b->getLHS(), b->getRHS()};
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && !u->isIncrementDecrementOp() && u->getOpcode() != UO_AddrOf)
    return {u->getSubExpr()};
  if (const auto* c = dyn_cast<CastExpr>(e)) return {c->getSubExpr()};
  if (const auto* p = dyn_cast<ParenExpr>(e)) return {p->getSubExpr()};
  return {};
}

bool Lowerer::surelyNotConstant(const Expr* e) {
  // Post-order over the operands with an explicit stack, each expression decided once: long
  // operator chains (a + b + ... thousands of terms) stay linear and off the call stack.
  std::vector<std::pair<const Expr*, bool>> work{{e, false}};
  while (!work.empty()) {
    auto [x, expanded] = work.back();
    work.pop_back();
    if (notConstant_.count(x) || maybeConstant_.count(x)) continue;
    const std::vector<const Expr*> ops = evaluatedOperands(x);
    if (!expanded && !ops.empty()) {
      work.push_back({x, true});
      for (const Expr* o : ops) work.push_back({o, false});
      continue;
    }
    bool no = false;
    for (const Expr* o : ops) no |= notConstant_.count(o) > 0;
    if (const auto* d = dyn_cast<DeclRefExpr>(x)) {
      // Parameters and variables that are neither constexpr nor const are never constants.
      if (isa<ParmVarDecl>(d->getDecl())) no = true;
      if (const auto* v = dyn_cast<VarDecl>(d->getDecl()); v && !v->isConstexpr() && !v->getType().isConstQualified()) no = true;
    }
    (no ? notConstant_ : maybeConstant_).insert(x);
  }
  return notConstant_.count(e) > 0;
}

std::optional<Value*> Lowerer::constant(const Expr* e) {
  if (e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
  QualType t = e->getType();
  if (!(t->isArithmeticType() || t->isEnumeralType() || t->isNullPtrType() || t->isBooleanType())) return std::nullopt;
  if (surelyNotConstant(e)) return std::nullopt;
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr>(e->IgnoreParens()) == false && !e->isEvaluatable(ctx_))
    return std::nullopt;
  Expr::EvalResult r;
  if (!e->EvaluateAsRValue(r, ctx_) || r.HasSideEffects) return std::nullopt;
  auto et = elemOf(t);
  if (!et) return std::nullopt;
  if (r.Val.isInt()) return b_.intConst(r.Val.getInt().getExtValue(), *et);
  if (r.Val.isFloat()) return b_.floatConst(r.Val.getFloat().convertToDouble(), *et);
  return std::nullopt;
}

}  // namespace tilecc::lowering
