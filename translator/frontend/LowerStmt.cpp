// The kernel and its statements: locals, if/else and for loops as regions with carried values.
#include "frontend/Lowerer.h"

namespace tilecc::lowering {

// ================================ kernel ==========================================

void Lowerer::kernel(const FunctionDecl* fd) {
  k_.loc = irLoc(fd->getLocation());
  for (const ParmVarDecl* p : fd->parameters()) {
    QualType t = p->getType();
    auto ty = typeOf(t);
    if (!ty || ty->isTile() || t->isReferenceType())
      error(p->getLocation(), "kernel parameter '" + p->getNameAsString() + "' has type '" + t.getAsString() +
                                  "'; kernel parameters are bool, int, unsigned, int64_t, float or pointers to "
                                  "element types");
    if (t.getCanonicalType()->isSpecificBuiltinType(BuiltinType::Double))
      error(p->getLocation(), "kernel parameter '" + p->getNameAsString() + "' is a double; use float");
    Value* v = k_.newValue(*ty, p->getNameAsString());
    k_.params.push_back(v);
    ir::ParamInfo info{p->getNameAsString(), 0, 0};
    for (const auto* a : p->specific_attrs<AnnotateAttr>()) {
      if (a->args_size() != 1) continue;
      std::int64_t n = constInt(*a->args_begin());
      if (n <= 0 || (n & (n - 1)) != 0)
        error(a->getLocation(), "promise values must be powers of two, got " + std::to_string(n));
      if (a->getAnnotation() == "tilecc.aligned") {
        if (!ty->elem.isPtr()) error(a->getLocation(), "TILECC_ALIGNED applies to pointer parameters");
        info.aligned = n;
      } else if (a->getAnnotation() == "tilecc.multiple_of") {
        if (!ty->elem.isInt()) error(a->getLocation(), "TILECC_MULTIPLE_OF applies to integer parameters");
        info.multipleOf = n;
      }
    }
    k_.paramInfo.push_back(info);
    vars_[p] = CVal{v, nullptr, {}, false};
  }
  callStack_.push_back(fd);
  const auto* body = dyn_cast_or_null<CompoundStmt>(fd->getBody());
  if (!body) error(fd->getLocation(), "kernel has no body");
  if (compound(body)) {
    // falls off the end: nothing to add
  }
}

// ================================ statements ======================================

bool Lowerer::compound(const CompoundStmt* cs) { return sequence({cs->body_begin(), cs->body_end()}); }

bool Lowerer::sequence(const std::vector<const Stmt*>& stmts, std::size_t from) {
  for (std::size_t i = from; i < stmts.size(); ++i) {
    const bool mayReturn = exit_ && containsReturn(stmts[i]);
    if (!stmt(stmts[i])) return false;  // the rest is unreachable
    if (!mayReturn || i + 1 == stmts.size()) continue;
    // The rest runs only if nothing returned.
    unlessDone({stmts.begin() + static_cast<long>(i) + 1, stmts.end()});
    return true;
  }
  return true;
}

void Lowerer::unlessDone(const std::vector<const Stmt*>& stmts) {
  const LocScope here = at(stmts.front());
  auto cv = carried(stmts);
  std::vector<Value*> before = flatten(cv);
  std::vector<Type> types;
  for (Value* v : before) types.push_back(v->type);
  ir::Op* op = b_.create(OpKind::If, {unary(UnOp::Not, exit_->done)}, types);
  ir::Block* outer = b_.block;
  const auto saved = vars_;
  const auto savedExit = exit_;
  b_.block = b_.addRegion(op);
  sequence(stmts);
  b_.create(OpKind::Yield, flatten(cv), {});
  vars_ = saved;
  exit_ = savedExit;
  b_.block = b_.addRegion(op);
  b_.create(OpKind::Yield, before, {});
  b_.block = outer;
  rebind(cv, op->results);
  nameAfter(cv, op->results);
}

std::optional<CVal> Lowerer::loopWithReturn(const FunctionDecl* fd, const Stmt* s, const std::vector<const Stmt*>& rest) {
  const LocScope here = at(s);
  const std::optional<Exit> outerExit = exit_;
  Exit e;
  e.done = b_.intConst(0, ElemType::of(Scalar::Bool));
  if (!fd->getReturnType()->isVoidType()) {
    const Type t = typeOrError(fd->getReturnType(), fd->getLocation());
    e.ret = toShape(b_.intConst(0, t.elem), t.shape);
  }
  exit_ = e;
  stmt(s);
  e = *exit_;
  exit_ = outerExit;
  // After the loop: the value it returned, or the rest of the helper.
  std::vector<Type> types;
  if (e.ret) types.push_back(e.ret->type);
  ir::Op* op = b_.create(OpKind::If, {e.done}, types);
  ir::Block* outer = b_.block;
  const auto saved = vars_;
  b_.block = b_.addRegion(op);
  b_.create(OpKind::Yield, e.ret ? std::vector<Value*>{e.ret} : std::vector<Value*>{}, {});
  b_.block = b_.addRegion(op);
  std::optional<CVal> r = helperTail(fd, rest);
  if (!r && e.ret)
    error(dyn_cast<CompoundStmt>(fd->getBody())->getRBracLoc(), "'" + fd->getNameAsString() + "' can reach its end without returning a value");
  if (e.ret && (!r->v || r->v->type != e.ret->type))
    error(s->getBeginLoc(), "a helper that returns from inside a loop returns one value type on every path");
  b_.create(OpKind::Yield, e.ret ? std::vector<Value*>{r->v} : std::vector<Value*>{}, {});
  vars_ = saved;
  b_.block = outer;
  return e.ret ? CVal{op->result(), nullptr, {}, false} : CVal{};
}

// The variable a statement assigns, or the function it calls ("" when neither).
std::string Lowerer::statementName(const Stmt* s) {
  const Expr* e = dyn_cast<Expr>(s);
  if (!e) return "";
  e = e->IgnoreImplicit()->IgnoreParenImpCasts();
  auto varOf = [](const Expr* x) -> std::string {
    if (const auto* d = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts())) return d->getDecl()->getNameAsString();
    return "";
  };
  if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) return varOf(b->getLHS());
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) return varOf(u->getSubExpr());
  if (const auto* c = dyn_cast<CXXOperatorCallExpr>(e); c && c->isAssignmentOp() && c->getNumArgs() > 0) return varOf(c->getArg(0));
  if (const auto* c = dyn_cast<CallExpr>(e))
    if (const FunctionDecl* fd = c->getDirectCallee()) return fd->getNameAsString();
  return "";
}

bool Lowerer::stmt(const Stmt* s) {
  const LocScope here = at(s);
  const HintScope named = naming(statementName(s));
  if (const auto* cs = dyn_cast<CompoundStmt>(s)) return compound(cs);
  if (const auto* ds = dyn_cast<DeclStmt>(s)) {
    declStmt(ds);
    return true;
  }
  if (isa<NullStmt>(s)) return true;
  if (const auto* is = dyn_cast<IfStmt>(s)) return ifStmt(is);
  if (const auto* fs = dyn_cast<ForStmt>(s)) return forStmt(fs);
  if (const auto* rs = dyn_cast<ReturnStmt>(s)) {
    if (callStack_.size() > 1 && exit_) {  // a helper's return inside a loop: set done and the value
      CVal v = returnValue(callStack_.back(), rs);
      if (exit_->ret) {
        if (!v.v) error(s->getBeginLoc(), "a helper that returns from inside a loop returns a value, not a block pointer or list");
        exit_->ret = v.v->type.isTile() ? v.v : convert(v.v, exit_->ret->type.elem);
        if (exit_->ret->type != v.v->type && v.v->type.isTile())
          error(s->getBeginLoc(), "a helper that returns from inside a loop returns one value type on every path");
      }
      exit_->done = b_.intConst(1, ElemType::of(Scalar::Bool));
      return false;
    }
    if (callStack_.size() > 1)
      error(s->getBeginLoc(), "a helper function cannot return from here");
    if (rs->getRetValue()) error(s->getBeginLoc(), "kernels return void");
    b_.create(OpKind::Return, {}, {});
    return false;
  }
  if (const auto* e = dyn_cast<Expr>(s)) {
    lower(e);
    return true;
  }
  if (isa<WhileStmt, DoStmt>(s))
    error(s->getBeginLoc(), "only 'for' loops with an integer induction variable are supported in kernels");
  if (isa<BreakStmt, ContinueStmt>(s))
    error(s->getBeginLoc(), "'break' and 'continue' are not supported in kernels; use masks or 'if'");
  if (isa<SwitchStmt>(s)) error(s->getBeginLoc(), "'switch' is not supported in kernels; use 'if'");
  if (isa<GotoStmt, IndirectGotoStmt, LabelStmt>(s)) error(s->getBeginLoc(), "'goto' is not supported in kernels");
  if (isa<CXXTryStmt>(s)) error(s->getBeginLoc(), "exceptions are not supported in kernels");
  if (isa<AsmStmt>(s)) error(s->getBeginLoc(), "inline assembly is not supported in kernels");
  if (isa<CXXForRangeStmt>(s)) error(s->getBeginLoc(), "range-based 'for' is not supported in kernels");
  error(s->getBeginLoc(), std::string("statement '") + s->getStmtClassName() + "' is not supported in kernels");
}

void Lowerer::declStmt(const DeclStmt* ds) {
  for (const Decl* d : ds->decls()) {
    const auto* vd = dyn_cast<VarDecl>(d);
    if (!vd) {
      if (isa<TypedefNameDecl, UsingDecl, UsingDirectiveDecl, StaticAssertDecl, UsingShadowDecl>(d)) continue;
      error(d->getLocation(), "only variable declarations are supported in kernels");
    }
    if (!vd->hasLocalStorage() && !vd->isConstexpr())
      error(vd->getLocation(), "static and thread-local variables are not supported in kernels");
    if (vd->getType()->isReferenceType())
      error(vd->getLocation(), "reference variables are not supported in kernels; use a value");
    if (vd->getType()->isArrayType()) error(vd->getLocation(), "arrays are not supported in kernels; use tiles");
    if (vd->isConstexpr() && !vd->hasLocalStorage()) continue;  // folded where used
    const HintScope named = naming(vd->getNameAsString());
    const Expr* init = vd->getInit();
    if (!init) {  // tiles start at zero; a scalar's value is indeterminate until assigned: zero too
      auto ty = typeOrError(vd->getType(), vd->getLocation());
      vars_[vd] = CVal{toShape(b_.intConst(0, ty.elem), ty.shape), nullptr, {}, false};
      continue;
    }
    CVal v = lower(init);  // first: a lambda or `new` is reported as such, not as a type
    if (!isTileccRecord(vd->getType(), "block_ptr")) typeOrError(vd->getType(), vd->getLocation());
    if (v.v) {
      // Scalar initializers convert to the declared type (int x = 2.5f; half h = x;).
      auto ty = typeOrError(vd->getType(), vd->getLocation());
      if (!ty.isTile()) v.v = convert(v.v, ty.elem);
      if (v.v->name.empty() && !(v.v->def && v.v->def->kind == OpKind::Constant)) v.v->name = vd->getNameAsString();
    }
    vars_[vd] = v;
  }
}

std::vector<const VarDecl*> Lowerer::carried(const Stmt* s1, const Stmt* s2) {
  std::vector<const Stmt*> stmts;
  for (const Stmt* s : {s1, s2})
    if (s) stmts.push_back(s);
  return carried(stmts);
}

std::vector<const VarDecl*> Lowerer::carried(const std::vector<const Stmt*>& stmts) {
  AssignedVars av;
  for (const Stmt* s : stmts) av.TraverseStmt(const_cast<Stmt*>(s));
  std::vector<const VarDecl*> out;
  for (const VarDecl* v : av.vars)
    if (vars_.count(v)) out.push_back(v);
  // Deterministic order: by source position.
  std::sort(out.begin(), out.end(), [](const VarDecl* a, const VarDecl* b) {
    return a->getLocation().getRawEncoding() < b->getLocation().getRawEncoding();
  });
  return out;
}

std::vector<Value*> Lowerer::flatten(const std::vector<const VarDecl*>& vs) {
  std::vector<Value*> out;
  for (const VarDecl* v : vs) {
    const CVal& c = vars_.at(v);
    if (c.bp) {
      out.push_back(c.bp->base);
      for (auto* x : c.bp->shape) out.push_back(x);
      for (auto* x : c.bp->strides) out.push_back(x);
      for (auto* x : c.bp->offsets) out.push_back(x);
    } else {
      out.push_back(c.v);
    }
  }
  if (exit_) {
    out.push_back(exit_->done);
    if (exit_->ret) out.push_back(exit_->ret);
  }
  return out;
}

void Lowerer::rebind(const std::vector<const VarDecl*>& vs, const std::vector<Value*>& values) {
  std::size_t i = 0;
  for (const VarDecl* v : vs) {
    CVal& c = vars_.at(v);
    if (c.bp) {
      auto bp = std::make_shared<BlockPtr>(*c.bp);
      bp->base = values[i++];
      for (auto*& x : bp->shape) x = values[i++];
      for (auto*& x : bp->strides) x = values[i++];
      for (auto*& x : bp->offsets) x = values[i++];
      c.bp = bp;
    } else {
      c.v = values[i++];
    }
  }
  if (exit_) {
    exit_->done = values[i++];
    if (exit_->ret) exit_->ret = values[i++];
  }
}

void Lowerer::nameAfter(const std::vector<const VarDecl*>& vs, const std::vector<Value*>& values) {
  std::size_t i = 0;
  for (const VarDecl* v : vs) {
    const std::size_t n = vars_.at(v).bp ? 1 + 3 * vars_.at(v).bp->offsets.size() : 1;
    for (std::size_t j = 0; j < n; ++j) values[i + j]->name = v->getNameAsString();
    i += n;
  }
}

bool Lowerer::ifStmt(const IfStmt* s) {
  if (s->getInit()) stmt(s->getInit());
  if (s->getConditionVariableDeclStmt()) declStmt(s->getConditionVariableDeclStmt());
  if (s->isConstexpr()) {
    bool taken = constInt(s->getCond()) != 0;
    const Stmt* branch = taken ? s->getThen() : s->getElse();
    return branch ? stmt(branch) : true;
  }
  const LocScope here = at(s);
  Value* cond;
  {
    const HintScope named = naming("cond");
    cond = value(s->getCond());
    if (cond->type.isTile()) error(s->getCond()->getBeginLoc(), "a tile is never a condition; use masks and where()");
    cond = convert(cond, ElemType::of(Scalar::Bool));
  }
  auto cv = carried(s->getThen(), s->getElse());
  std::vector<Value*> before = flatten(cv);
  std::vector<Type> types;
  for (Value* v : before) types.push_back(v->type);
  ir::Op* op = b_.create(OpKind::If, {cond}, types);
  ir::Block* outer = b_.block;
  auto saved = vars_;
  const auto savedExit = exit_;
  bool anyFalls = false;
  for (int r = 0; r < 2; ++r) {
    ir::Block* region = b_.addRegion(op);
    b_.block = region;
    const Stmt* branch = r == 0 ? s->getThen() : s->getElse();
    bool falls = branch ? stmt(branch) : true;
    // A helper's return inside a loop only sets done: the branch goes on to its yield.
    if (falls || exit_) {
      b_.loc = irLoc(s->getEndLoc());
      b_.create(OpKind::Yield, flatten(cv), {});
      anyFalls = true;
    }
    vars_ = saved;
    exit_ = savedExit;
  }
  b_.block = outer;
  rebind(cv, op->results);
  nameAfter(cv, op->results);
  return anyFalls;
}

bool Lowerer::forStmt(const ForStmt* s) {
  const LocScope here = at(s);
  // for (T iv = lb; iv CMP ub; iv += step)
  const VarDecl* iv = nullptr;
  if (const auto* ds = dyn_cast_or_null<DeclStmt>(s->getInit()); ds && ds->isSingleDecl())
    iv = dyn_cast<VarDecl>(ds->getSingleDecl());
  if (!iv || !iv->getInit())
    error(s->getBeginLoc(), "a kernel 'for' loop declares its integer induction variable: for (int i = lb; i < ub; i += step)");
  auto ivType = typeOrError(iv->getType(), iv->getLocation());
  if (!ivType.elem.isInt() || ivType.isTile())
    error(iv->getLocation(), "the loop induction variable must be an integer scalar");

  const auto* cond = dyn_cast_or_null<BinaryOperator>(s->getCond() ? s->getCond()->IgnoreParenImpCasts() : nullptr);
  auto isIv = [&](const Expr* e) {
    const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == iv;
  };
  if (!cond || !cond->isComparisonOp() || cond->getOpcode() == BO_EQ || (!isIv(cond->getLHS()) && !isIv(cond->getRHS())))
    error(s->getCond() ? s->getCond()->getBeginLoc() : s->getBeginLoc(),
          "the loop condition must compare the induction variable with a bound (<, <=, >, >=, !=)");
  bool ivLeft = isIv(cond->getLHS());
  const Expr* boundExpr = ivLeft ? cond->getRHS() : cond->getLHS();
  using ir::CmpPred;
  CmpPred pred;
  switch (cond->getOpcode()) {
    case BO_LT: pred = ivLeft ? CmpPred::Lt : CmpPred::Gt; break;
    case BO_LE: pred = ivLeft ? CmpPred::Le : CmpPred::Ge; break;
    case BO_GT: pred = ivLeft ? CmpPred::Gt : CmpPred::Lt; break;
    case BO_GE: pred = ivLeft ? CmpPred::Ge : CmpPred::Le; break;
    default: pred = CmpPred::Ne; break;
  }

  const Expr* inc = s->getInc() ? s->getInc()->IgnoreParenImpCasts() : nullptr;
  const Expr* stepExpr = nullptr;
  int stepSign = 1;
  if (const auto* u = dyn_cast_or_null<UnaryOperator>(inc); u && u->isIncrementDecrementOp() && isIv(u->getSubExpr())) {
    stepSign = u->isIncrementOp() ? 1 : -1;
  } else if (const auto* ca = dyn_cast_or_null<CompoundAssignOperator>(inc);
             ca && isIv(ca->getLHS()) && (ca->getOpcode() == BO_AddAssign || ca->getOpcode() == BO_SubAssign)) {
    stepExpr = ca->getRHS();
    stepSign = ca->getOpcode() == BO_AddAssign ? 1 : -1;
  } else if (const auto* as = dyn_cast_or_null<BinaryOperator>(inc); as && as->getOpcode() == BO_Assign && isIv(as->getLHS())) {
    const auto* add = dyn_cast<BinaryOperator>(as->getRHS()->IgnoreParenImpCasts());
    if (add && (add->getOpcode() == BO_Add || add->getOpcode() == BO_Sub) && isIv(add->getLHS())) {
      stepExpr = add->getRHS();
      stepSign = add->getOpcode() == BO_Add ? 1 : -1;
    }
  }
  if (!inc || (!stepExpr && !isa<UnaryOperator>(inc)))
    error(s->getInc() ? s->getInc()->getBeginLoc() : s->getBeginLoc(),
          "the loop increment must be ++i, --i, i += step, i -= step or i = i + step");

  AssignedVars bodyAssigned;
  bodyAssigned.hinted = iv;  // `i = multiple_of(i, c)`: a hint on i for the rest of the iteration
  bodyAssigned.TraverseStmt(const_cast<Stmt*>(s->getBody()));
  if (bodyAssigned.vars.count(iv))
    error(bodyAssigned.first.at(iv),
          "the loop induction variable '" + iv->getNameAsString() +
              "' may change only in the loop's increment (a hint that keeps its value is allowed: '" +
              iv->getNameAsString() + " = multiple_of(" + iv->getNameAsString() + ", 16);')",
          iv->getLocation(), "'" + iv->getNameAsString() + "' is declared here");
  DeclRefs boundRefs;
  boundRefs.TraverseStmt(const_cast<Expr*>(boundExpr));
  if (stepExpr) boundRefs.TraverseStmt(const_cast<Expr*>(stepExpr));
  if (boundRefs.vars.count(iv))
    error(boundExpr->getBeginLoc(), "the loop bound and step are computed once, before the first iteration: they may not use the induction "
                                    "variable '" + iv->getNameAsString() + "' (rename it if another '" + iv->getNameAsString() + "' was meant)");
  for (const VarDecl* v : boundRefs.vars)
    if (bodyAssigned.vars.count(v))
      error(boundExpr->getBeginLoc(), "the loop bound and step must not change inside the loop ('" + v->getNameAsString() + "' does)");

  Value *lb, *ub, *step;
  bool countsDown = false;
  {
    const HintScope named = naming(iv->getNameAsString());
    lb = convert(value(iv->getInit()), ivType.elem);
    ub = value(boundExpr);
    if (ub->type.isTile()) error(boundExpr->getBeginLoc(), "the loop bound must be a scalar");
    Value* stepSize = stepExpr ? convert(value(stepExpr), ivType.elem) : b_.intConst(1, ivType.elem);
    step = stepSign < 0 ? unary(UnOp::Neg, stepSize) : stepSize;
    const bool constStep = stepSize->def && stepSize->def->kind == OpKind::Constant && stepSize->def->intValue > 0;
    // One loop form for the passes that pipeline loops (cp.async rings, TMA, warp
    // specialisation take `<`): `i <= ub` is `i < ub + 1`, and `i != ub` stepping by a
    // constant is `i < ub`. They differ only where the loop would overflow or never end. A
    // loop counting down (`i > lo`, `i >= lo`, `i != lo` with `i -= c`) runs its negation up:
    // u = -i from -lb while u < -lo (or -lo + 1), u += step, and the body reads i = -u.
    if (ivType.elem.isSigned() && ub->type.elem.isSigned() && (pred == CmpPred::Gt || pred == CmpPred::Ge || (pred == CmpPred::Ne && stepSign < 0 && constStep))) {
      lb = unary(UnOp::Neg, lb);
      ub = unary(UnOp::Neg, ub);
      if (pred == CmpPred::Ge) ub = binary(BinOp::Add, ub, b_.intConst(1, ub->type.elem), ub->type.elem);
      step = stepSign < 0 ? stepSize : unary(UnOp::Neg, stepSize);
      pred = CmpPred::Lt;
      countsDown = true;
    } else if (pred == CmpPred::Le && ub->type.elem.isInt()) {
      ub = binary(BinOp::Add, ub, b_.intConst(1, ub->type.elem), ub->type.elem);
      pred = CmpPred::Lt;
    } else if (pred == CmpPred::Ne && stepSign > 0 && constStep) {
      pred = CmpPred::Lt;
    }
  }

  auto cv = carried(s->getBody());
  std::vector<Value*> inits = flatten(cv);
  std::vector<Value*> operands = {lb, ub, step};
  std::vector<Type> types;
  for (Value* v : inits) {
    operands.push_back(v);
    types.push_back(v->type);
  }
  b_.loc = irLoc(s->getBeginLoc());
  ir::Op* op = b_.create(OpKind::For, operands, types);
  op->cmp = pred;
  ir::Block* outer = b_.block;
  ir::Block* body = b_.addRegion(op);
  Value* ivArg = b_.addArg(body, ivType, countsDown ? "neg_" + iv->getNameAsString() : iv->getNameAsString());
  std::vector<Value*> args;
  for (std::size_t i = 0; i < inits.size(); ++i) args.push_back(b_.addArg(body, inits[i]->type, inits[i]->name));
  auto saved = vars_;
  b_.block = body;
  if (countsDown) {
    Value* down = unary(UnOp::Neg, ivArg);
    down->name = iv->getNameAsString();
    vars_[iv] = CVal{down, nullptr, {}, false};
  } else {
    vars_[iv] = CVal{ivArg, nullptr, {}, false};
  }
  rebind(cv, args);
  nameAfter(cv, args);
  if (exit_ && containsReturn(s->getBody())) {  // iterations after a return do nothing
    unlessDone({s->getBody()});
    b_.loc = irLoc(s->getEndLoc());
    b_.create(OpKind::Yield, flatten(cv), {});
  } else if (stmt(s->getBody()) || exit_) {
    b_.loc = irLoc(s->getEndLoc());
    b_.create(OpKind::Yield, flatten(cv), {});
  }
  b_.block = outer;
  vars_ = saved;
  rebind(cv, op->results);
  for (std::size_t i = 0; i < op->results.size(); ++i) op->results[i]->name = args[i]->name;
  return true;
}

// ================================ expressions =====================================

}  // namespace tilecc::lowering
