// Expressions: constants, variables, conditionals, casts, built-in operators, assignments.
#include "frontend/Lowerer.h"

namespace tilecc::lowering {

CVal Lowerer::lower(const Expr* e) {
  if (auto c = constant(e)) return CVal{*c, nullptr, {}, false};
  if (const auto* p = dyn_cast<ParenExpr>(e)) return lower(p->getSubExpr());
  if (const auto* x = dyn_cast<ExprWithCleanups>(e)) return lower(x->getSubExpr());
  if (const auto* x = dyn_cast<MaterializeTemporaryExpr>(e)) return lower(x->getSubExpr());
  if (const auto* x = dyn_cast<CXXBindTemporaryExpr>(e)) return lower(x->getSubExpr());
  if (const auto* x = dyn_cast<ConstantExpr>(e)) return lower(x->getSubExpr());
  if (const auto* x = dyn_cast<CXXDefaultArgExpr>(e)) return lower(x->getExpr());
  if (const auto* x = dyn_cast<SubstNonTypeTemplateParmExpr>(e)) return lower(x->getReplacement());
  if (const auto* x = dyn_cast<CastExpr>(e)) return cast(x);
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* vd = dyn_cast<VarDecl>(d->getDecl());
    if (vd) {
      auto it = vars_.find(vd);
      if (it != vars_.end()) return it->second;
      if (!vd->hasLocalStorage() && vd->isConstexpr())  // scalars fold; objects of classes do not
        error(e->getBeginLoc(), "constexpr global '" + vd->getNameAsString() + "' is not a scalar; kernels may use only constexpr globals of scalar type");
      if (!vd->hasLocalStorage())
        error(e->getBeginLoc(), "global variable '" + vd->getNameAsString() + "' is not a constant; kernels may use only constexpr globals");
    }
    error(e->getBeginLoc(), "'" + d->getDecl()->getNameAsString() + "' cannot be used in kernel code here");
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) return binaryOperator(b);
  if (const auto* u = dyn_cast<UnaryOperator>(e)) return unaryOperator(u);
  if (const auto* c = dyn_cast<ConditionalOperator>(e); c && c->getType()->isVoidType()) {
    // assert(x): (x ? void(0) : __assert_fail("x", ...)), a check rather than a value.
    const auto* fail = dyn_cast<CallExpr>(c->getFalseExpr()->IgnoreParenImpCasts());
    if (!fail || !fail->getDirectCallee() || !fail->getDirectCallee()->isNoReturn())
      error(e->getBeginLoc(), "a conditional expression of type void is not supported in kernels; use if");
    const LocScope here = at(c);
    Value* cond = value(c->getCond());
    if (cond->type.isTile()) error(c->getCond()->getBeginLoc(), "a tile is never a condition; use masks and where()");
    ir::Op* op = b_.create(OpKind::Assert, {convert(cond, ElemType::of(Scalar::Bool))}, {});
    for (const Expr* a : fail->arguments())
      if (const auto* sl = dyn_cast<StringLiteral>(a->IgnoreParenImpCasts()); sl && sl->isOrdinary()) {
        op->note = sl->getString().str();
        break;
      }
    return {};
  }
  if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
    Value* cond = convert(value(c->getCond()), ElemType::of(Scalar::Bool));
    Type rt = typeOrError(c->getType(), c);
    HasCall hc;
    hc.TraverseStmt(const_cast<Expr*>(c->getTrueExpr()));
    hc.TraverseStmt(const_cast<Expr*>(c->getFalseExpr()));
    if (!hc.found) {  // both arms are plain arithmetic: evaluate both and select
      Value* t = convert(value(c->getTrueExpr()), rt.elem);
      Value* f = convert(value(c->getFalseExpr()), rt.elem);
      return CVal{b_.one(OpKind::Select, {cond, t, f}, rt), nullptr, {}, false};
    }
    ir::Op* op = b_.create(OpKind::If, {cond}, {rt});
    ir::Block* outer = b_.block;
    for (int r = 0; r < 2; ++r) {
      b_.block = b_.addRegion(op);
      Value* v = convert(value(r == 0 ? c->getTrueExpr() : c->getFalseExpr()), rt.elem);
      b_.create(OpKind::Yield, {v}, {});
    }
    b_.block = outer;
    return CVal{op->result(), nullptr, {}, false};
  }
  if (const auto* c = dyn_cast<CallExpr>(e)) return call(c);
  if (const auto* c = dyn_cast<CXXConstructExpr>(e)) {
    if (c->getNumArgs() == 1) return lower(c->getArg(0));  // copies, moves, converting constructors
    if (c->getNumArgs() == 0) {
      auto ty = typeOrError(c->getType(), c);
      return CVal{toShape(b_.intConst(0, ty.elem), ty.shape), nullptr, {}, false};
    }
    error(e->getBeginLoc(), "this constructor is not supported in kernel code");
  }
  if (const auto* il = dyn_cast<InitListExpr>(e)) {
    // Braces that initialise one value — int64_t{row}, const float x{0}, tile<float, N> acc{t}
    // (an aggregate initialised from one of its own type) — are that value; other braces are
    // lists (a block pointer's shape and strides).
    const QualType lt = il->getType();
    const bool scalar = lt->isArithmeticType() || lt->isPointerType();
    const bool sameRecord = il->getNumInits() == 1 && lt->isRecordType() &&
                            ctx_.hasSameUnqualifiedType(lt, il->getInit(0)->getType());
    if ((scalar && il->getNumInits() <= 1) || sameRecord) {
      const Type ty = typeOrError(lt, il);
      if (il->getNumInits() == 0) return CVal{toShape(b_.intConst(0, ty.elem), ty.shape), nullptr, {}, false};
      CVal v = lower(il->getInit(0));
      if (v.v && !ty.isTile() && !v.v->type.isTile()) v.v = convert(v.v, ty.elem);
      return v;
    }
    CVal out;
    out.isList = true;
    for (const Expr* x : il->inits()) {
      CVal v = lower(x);
      if (v.isList)
        for (auto& y : v.list) out.list.push_back(y);
      else
        out.list.push_back(v);
    }
    return out;
  }
  if (isa<LambdaExpr>(e)) error(e->getBeginLoc(), "lambdas are not supported in kernels; use a helper function");
  if (isa<CXXThrowExpr>(e)) error(e->getBeginLoc(), "exceptions are not supported in kernels");
  if (isa<CXXNewExpr, CXXDeleteExpr>(e)) error(e->getBeginLoc(), "'new' and 'delete' are not supported in kernels");
  if (isa<ArraySubscriptExpr>(e)) error(e->getBeginLoc(), "subscripts are not supported in kernels; use load(p + i)");
  if (isa<MemberExpr>(e)) error(e->getBeginLoc(), "member access is not supported in kernels");
  if (isa<StringLiteral>(e)) error(e->getBeginLoc(), "strings are not supported in kernels");
  error(e->getBeginLoc(), std::string("expression '") + e->getStmtClassName() + "' is not supported in kernels");
}

CVal Lowerer::cast(const CastExpr* c) {
  switch (c->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_FunctionToPointerDecay:
    case CK_ConstructorConversion:
    case CK_UserDefinedConversion:
    case CK_ToVoid:
    case CK_UncheckedDerivedToBase:
    case CK_DerivedToBase: {
      CVal v = lower(c->getSubExpr());
      if (c->getCastKind() == CK_ToVoid || !v.v) return v;
      auto ty = typeOf(c->getType());
      if (ty && !ty->isTile() && !v.v->type.isTile()) v.v = convert(v.v, ty->elem);
      return v;
    }
    case CK_IntegralCast:
    case CK_FloatingCast:
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_IntegralToBoolean:
    case CK_FloatingToBoolean:
    case CK_BooleanToSignedIntegral:
    case CK_PointerToBoolean:
    case CK_BitCast: {
      Value* v = value(c->getSubExpr());
      Type ty = typeOrError(c->getType(), c);
      if (c->getCastKind() == CK_PointerToBoolean) {
        Value* null = b_.intConst(0, v->type.elem);
        return CVal{binary(BinOp::Ne, v, null, ElemType::of(Scalar::Bool)), nullptr, {}, false};
      }
      if (c->getCastKind() == CK_BitCast && !(v->type.elem.isPtr() && ty.elem.isPtr() && v->type.elem.pointee == ty.elem.pointee))
        error(c->getBeginLoc(), "reinterpreting casts are not supported in kernels");
      return CVal{convert(v, ty.elem), nullptr, {}, false};
    }
    case CK_NullToPointer: {
      Type ty = typeOrError(c->getType(), c);
      return CVal{b_.intConst(0, ty.elem), nullptr, {}, false};
    }
    case CK_ArrayToPointerDecay: error(c->getBeginLoc(), "arrays are not supported in kernels");
    default:
      error(c->getBeginLoc(), std::string("the conversion '") + c->getCastKindName() + "' is not supported in kernels");
  }
}

CVal Lowerer::binaryOperator(const BinaryOperator* bo) {
  const LocScope here = at(bo);
  if (bo->getOpcode() == BO_Comma) error(bo->getOperatorLoc(), "the comma operator is not supported in kernels");
  if (bo->getOpcode() == BO_Assign) {
    CVal v = lower(bo->getRHS());
    if (v.v) {
      auto ty = typeOrError(bo->getLHS()->getType(), bo);
      v.v = convert(v.v, ty.elem);
    }
    assign(bo->getLHS(), v);
    return v;
  }
  if (const auto* ca = dyn_cast<CompoundAssignOperator>(bo)) {
    Value* lhs = value(bo->getLHS());
    Value* rhs = value(bo->getRHS());
    Type lt = lhs->type;
    BinOp op;
    switch (bo->getOpcode()) {
      case BO_AddAssign: op = BinOp::Add; break;
      case BO_SubAssign: op = BinOp::Sub; break;
      case BO_MulAssign: op = BinOp::Mul; break;
      case BO_DivAssign: op = BinOp::Div; break;
      case BO_RemAssign: op = BinOp::Rem; break;
      case BO_ShlAssign: op = BinOp::Shl; break;
      case BO_ShrAssign: op = BinOp::Shr; break;
      case BO_AndAssign: op = BinOp::And; break;
      case BO_OrAssign: op = BinOp::Or; break;
      default: op = BinOp::Xor; break;
    }
    Value* r;
    if (lt.elem.isPtr()) {
      if (op != BinOp::Add && op != BinOp::Sub) error(bo->getOperatorLoc(), "only += and -= apply to pointers");
      if (op == BinOp::Sub) rhs = unary(UnOp::Neg, rhs);
      r = b_.one(OpKind::AddPtr, {lhs, rhs}, lt);
    } else {
      auto ct = typeOrError(ca->getComputationResultType(), bo);
      Value* a = convert(lhs, ct.elem);
      Value* b2 = convert(rhs, ct.elem);
      r = convert(binary(op, a, b2, ct.elem), lt.elem);
    }
    assign(bo->getLHS(), CVal{r, nullptr, {}, false});
    return CVal{r, nullptr, {}, false};
  }
  if (bo->getOpcode() == BO_LAnd || bo->getOpcode() == BO_LOr) {
    Value* a = convert(value(bo->getLHS()), ElemType::of(Scalar::Bool));
    HasCall hc;
    hc.TraverseStmt(const_cast<Expr*>(bo->getRHS()));
    if (!hc.found) {
      Value* b2 = convert(value(bo->getRHS()), ElemType::of(Scalar::Bool));
      return CVal{binary(bo->getOpcode() == BO_LAnd ? BinOp::And : BinOp::Or, a, b2, ElemType::of(Scalar::Bool)), nullptr, {}, false};
    }
    // Short-circuit: the right side runs only when needed (it may load).
    ir::Op* op = b_.create(OpKind::If, {a}, {Type::scalar(ElemType::of(Scalar::Bool))});
    ir::Block* outer = b_.block;
    for (int r = 0; r < 2; ++r) {
      b_.block = b_.addRegion(op);
      bool evaluate = (r == 0) == (bo->getOpcode() == BO_LAnd);
      Value* v = evaluate ? convert(value(bo->getRHS()), ElemType::of(Scalar::Bool))
                          : b_.intConst(bo->getOpcode() == BO_LOr, ElemType::of(Scalar::Bool));
      b_.create(OpKind::Yield, {v}, {});
    }
    b_.block = outer;
    return CVal{op->result(), nullptr, {}, false};
  }
  Value* a = value(bo->getLHS());
  Value* b2 = value(bo->getRHS());
  Type rt = typeOrError(bo->getType(), bo);
  if (bo->isAdditiveOp() && (a->type.elem.isPtr() || b2->type.elem.isPtr())) {
    if (a->type.elem.isPtr() && b2->type.elem.isPtr()) error(bo->getOperatorLoc(), "pointer differences are not supported in kernels");
    if (b2->type.elem.isPtr()) std::swap(a, b2);
    if (bo->getOpcode() == BO_Sub) b2 = unary(UnOp::Neg, b2);
    return CVal{b_.one(OpKind::AddPtr, {a, b2}, rt), nullptr, {}, false};
  }
  BinOp op;
  switch (bo->getOpcode()) {
    case BO_Add: op = BinOp::Add; break;
    case BO_Sub: op = BinOp::Sub; break;
    case BO_Mul: op = BinOp::Mul; break;
    case BO_Div: op = BinOp::Div; break;
    case BO_Rem: op = BinOp::Rem; break;
    case BO_Shl: op = BinOp::Shl; break;
    case BO_Shr: op = BinOp::Shr; break;
    case BO_And: op = BinOp::And; break;
    case BO_Or: op = BinOp::Or; break;
    case BO_Xor: op = BinOp::Xor; break;
    case BO_EQ: op = BinOp::Eq; break;
    case BO_NE: op = BinOp::Ne; break;
    case BO_LT: op = BinOp::Lt; break;
    case BO_LE: op = BinOp::Le; break;
    case BO_GT: op = BinOp::Gt; break;
    case BO_GE: op = BinOp::Ge; break;
    default: error(bo->getOperatorLoc(), "this operator is not supported in kernels");
  }
  if (!ir::isComparison(op) && op != BinOp::Shl && op != BinOp::Shr) {
    a = convert(a, rt.elem);
    b2 = convert(b2, rt.elem);
  }
  if (op == BinOp::Shl || op == BinOp::Shr) {
    a = convert(a, rt.elem);
  }
  return CVal{binary(op, a, b2, rt.elem), nullptr, {}, false};
}

CVal Lowerer::unaryOperator(const UnaryOperator* u) {
  const LocScope here = at(u);
  switch (u->getOpcode()) {
    case UO_AddrOf: error(u->getOperatorLoc(), "taking addresses is not supported in kernels");
    case UO_Deref: error(u->getOperatorLoc(), "dereferencing is not supported in kernels; use load(p)");
    case UO_Plus: return lower(u->getSubExpr());
    case UO_Minus:
    case UO_Not:
    case UO_LNot: {
      Value* v = value(u->getSubExpr());
      Type rt = typeOrError(u->getType(), u);
      if (u->getOpcode() == UO_LNot) return CVal{unary(UnOp::Not, convert(v, ElemType::of(Scalar::Bool))), nullptr, {}, false};
      return CVal{unary(u->getOpcode() == UO_Minus ? UnOp::Neg : UnOp::BitNot, convert(v, rt.elem)), nullptr, {}, false};
    }
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      Value* old = value(u->getSubExpr());
      if (old->type.isTile()) error(u->getOperatorLoc(), "++ and -- apply to scalars only");
      Value* one = b_.intConst(u->isIncrementOp() ? 1 : -1, old->type.elem.isPtr() ? ElemType::of(Scalar::I64) : old->type.elem);
      Value* nv = old->type.elem.isPtr() ? b_.one(OpKind::AddPtr, {old, one}, old->type)
                                         : binary(BinOp::Add, old, convert(one, old->type.elem), old->type.elem);
      assign(u->getSubExpr(), CVal{nv, nullptr, {}, false});
      return CVal{u->isPrefix() ? nv : old, nullptr, {}, false};
    }
    default: error(u->getOperatorLoc(), "this operator is not supported in kernels");
  }
}

void Lowerer::assign(const Expr* lhs, CVal v) {
  const auto* d = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts());
  const VarDecl* vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!vd || !vars_.count(vd)) error(lhs->getBeginLoc(), "only local variables can be assigned in kernels");
  setVar(vd, std::move(v));
}

void Lowerer::setVar(const VarDecl* vd, CVal v) {
  if (v.v && v.v->name.empty() && !(v.v->def && v.v->def->kind == OpKind::Constant)) v.v->name = vd->getNameAsString();
  vars_[vd] = std::move(v);
}

}  // namespace tilecc::lowering
