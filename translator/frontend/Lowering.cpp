#include "frontend/Lowering.h"

#include "ir/Builder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/TemplateBase.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <optional>
#include <set>
#include <utility>

namespace tilecc {

using namespace clang;
using ir::BinOp;
using ir::ElemType;
using ir::OpKind;
using ir::Scalar;
using ir::Type;
using ir::UnOp;
using ir::Value;

namespace {

/// Thrown after a diagnostic has been reported; unwinds the kernel being lowered.
struct Abort {};

/// A block pointer, lowered into its scalar parts (loads become masked pointer-tile loads).
struct BlockPtr {
  Value* base = nullptr;
  std::vector<Value*> shape, strides, offsets;  // i64 scalars
  std::vector<int> block;
};

/// A lowered expression: a value, a block pointer, or a braced list.
struct CVal {
  Value* v = nullptr;
  std::shared_ptr<BlockPtr> bp;
  std::vector<CVal> list;
  bool isList = false;
};

bool inNamespace(const Decl* d, llvm::StringRef ns) {
  const DeclContext* dc = d->getDeclContext();
  while (dc && !dc->isNamespace()) dc = dc->getParent();
  if (!dc) return false;
  const auto* nd = cast<NamespaceDecl>(dc);
  return nd->getName() == ns && nd->getParent()->getRedeclContext()->isTranslationUnit();
}

bool isTileccRecord(QualType t, llvm::StringRef name) {
  t = t.getCanonicalType().getNonReferenceType().getUnqualifiedType();
  const auto* rd = t->getAsCXXRecordDecl();
  return rd && rd->getName() == name && inNamespace(rd, "tilecc");
}

const TemplateArgumentList* recordArgs(QualType t) {
  t = t.getCanonicalType().getNonReferenceType().getUnqualifiedType();
  if (const auto* s = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl()))
    return &s->getTemplateArgs();
  return nullptr;
}

/// Variables assigned (=, op=, ++, --) inside a statement.
struct AssignedVars : RecursiveASTVisitor<AssignedVars> {
  std::set<const VarDecl*> vars;
  void note(const Expr* e) {
    if (const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (const auto* v = dyn_cast<VarDecl>(d->getDecl())) vars.insert(v);
  }
  bool VisitBinaryOperator(BinaryOperator* b) {
    if (b->isAssignmentOp()) note(b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->isIncrementDecrementOp()) note(u->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* c) {
    if (c->isAssignmentOp() && c->getNumArgs() >= 1) note(c->getArg(0));
    return true;
  }
};

struct DeclRefs : RecursiveASTVisitor<DeclRefs> {
  std::set<const VarDecl*> vars;
  bool VisitDeclRefExpr(DeclRefExpr* d) {
    if (const auto* v = dyn_cast<VarDecl>(d->getDecl())) vars.insert(v);
    return true;
  }
};

struct HasCall : RecursiveASTVisitor<HasCall> {
  bool found = false;
  bool VisitCallExpr(CallExpr*) {
    found = true;
    return false;
  }
};

class Lowerer {
 public:
  Lowerer(ASTContext& ctx, ir::Kernel& k) : ctx_(ctx), diags_(ctx.getDiagnostics()), k_(k), b_{k, k.body.get(), {}} {}

  void kernel(const FunctionDecl* fd);

 private:
  ASTContext& ctx_;
  DiagnosticsEngine& diags_;
  ir::Kernel& k_;
  ir::Builder b_;
  std::map<const VarDecl*, CVal> vars_;
  std::vector<const FunctionDecl*> callStack_;

  // ---- diagnostics ----
  [[noreturn]] void error(SourceLocation loc, const std::string& msg) {
    diags_.Report(loc, diags_.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << msg;
    throw Abort{};
  }
  ir::Loc irLoc(SourceLocation l) {
    const SourceManager& sm = ctx_.getSourceManager();
    PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
    if (p.isInvalid()) return {};
    return ir::Loc{p.getFilename(), p.getLine(), p.getColumn()};
  }
  /// Ops created in the caller's scope come from `s`. Nested statements and expressions set
  /// their own location and restore this one when they return, so an op created after its
  /// operands (a store after the helper call that computed its value) keeps its own line.
  struct LocScope {
    ir::Builder& b;
    ir::Loc saved;
    ~LocScope() { b.loc = std::move(saved); }
  };
  [[nodiscard]] LocScope at(const Stmt* s) { return LocScope{b_, std::exchange(b_.loc, irLoc(s->getBeginLoc()))}; }
  /// Temporaries are named after the statement they come from (the variable it assigns, or
  /// the function it calls), so that generated names survive edits elsewhere in the kernel.
  struct HintScope {
    ir::Builder& b;
    std::string saved;
    ~HintScope() { b.hint = std::move(saved); }
  };
  [[nodiscard]] HintScope naming(std::string hint) {
    if (hint.empty()) hint = b_.hint;
    return HintScope{b_, std::exchange(b_.hint, std::move(hint))};
  }
  static std::string statementName(const Stmt* s);

  // ---- types ----
  std::optional<ElemType> elemOf(QualType t) {
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

  std::optional<Type> typeOf(QualType t) {
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

  Type typeOrError(QualType t, SourceLocation loc) {
    if (auto ty = typeOf(t)) return *ty;
    error(loc, "type '" + t.getAsString() + "' is not supported in kernel code (element types are bool, int8_t, "
                                            "uint8_t, int, unsigned, int64_t, float, half and bfloat16)");
  }

  // ---- value helpers ----
  Value* convert(Value* v, ElemType e) {
    if (v->type.elem == e) return v;
    return b_.one(OpKind::Convert, {v}, v->type.withElem(e));
  }
  Value* toShape(Value* v, const std::vector<int>& shape) {
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
  Value* to(Value* v, ElemType e, const std::vector<int>& shape) { return toShape(convert(v, e), shape); }
  Value* binary(BinOp op, Value* a, Value* b2, ElemType resultElem) {
    return b_.binary(op, a, b2, resultElem);
  }
  Value* unary(UnOp op, Value* a) { return b_.unary(op, a); }

  /// The element type operands of an elementwise op convert to (the header's compute_t, contract
  /// v1): integer tiles of different widths promote to the wider; an integer tile with a floating
  /// scalar computes in f32, and one narrower than 64 bits with a 64-bit integer scalar in i64.
  ElemType computeElem(const std::vector<Value*>& ops) {
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

  Value* single(const CVal& c, const Expr* e) {
    if (!c.v) error(e->getBeginLoc(), "a block pointer or braced list cannot be used here");
    return c.v;
  }
  Value* value(const Expr* e) { return single(lower(e), e); }

  std::int64_t constInt(const Expr* e) {
    Expr::EvalResult r;
    if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx_)) error(e->getBeginLoc(), "this must be a constant expression");
    return r.Val.getInt().getExtValue();
  }

  std::optional<Value*> constant(const Expr* e) {
    if (e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
    QualType t = e->getType();
    if (!(t->isArithmeticType() || t->isEnumeralType() || t->isNullPtrType() || t->isBooleanType())) return std::nullopt;
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

  // ---- statements ----
  bool stmt(const Stmt* s);  // false when control cannot fall through (return)
  bool compound(const CompoundStmt* cs);
  bool ifStmt(const IfStmt* s);
  bool forStmt(const ForStmt* s);
  void declStmt(const DeclStmt* ds);
  std::vector<const VarDecl*> carried(const Stmt* s1, const Stmt* s2 = nullptr);
  std::vector<Value*> flatten(const std::vector<const VarDecl*>& vs);
  void rebind(const std::vector<const VarDecl*>& vs, const std::vector<Value*>& values);
  /// Names values (laid out as flatten() lays them out) after the variables they carry.
  void nameAfter(const std::vector<const VarDecl*>& vs, const std::vector<Value*>& values);

  // ---- expressions ----
  CVal lower(const Expr* e);
  CVal cast(const CastExpr* c);
  CVal binaryOperator(const BinaryOperator* b);
  CVal unaryOperator(const UnaryOperator* u);
  CVal call(const CallExpr* c);
  CVal apiCall(const CallExpr* c, const FunctionDecl* fd);
  CVal tileOperator(const CXXOperatorCallExpr* c);
  CVal mathCall(const CallExpr* c, llvm::StringRef name);
  CVal inlineCall(const CallExpr* c, const FunctionDecl* fd);
  Value* elementwise(BinOp op, Value* a, Value* bv, Type result);
  void assign(const Expr* lhs, CVal v);
  CVal blockLoad(const BlockPtr& bp, const Type& result);
  void blockStore(const BlockPtr& bp, Value* values);
  std::pair<Value*, Value*> blockPointers(const BlockPtr& bp, ElemType pointee);
};

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

bool Lowerer::compound(const CompoundStmt* cs) {
  for (const Stmt* s : cs->body())
    if (!stmt(s)) return false;  // the rest is unreachable
  return true;
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
    if (callStack_.size() > 1)
      error(s->getBeginLoc(), "helper functions may return only as their last statement");
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
    if (!init) {
      auto ty = typeOrError(vd->getType(), vd->getLocation());
      if (!ty.isTile()) error(vd->getLocation(), "variable '" + vd->getNameAsString() + "' needs an initializer");
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
  AssignedVars av;
  if (s1) av.TraverseStmt(const_cast<Stmt*>(s1));
  if (s2) av.TraverseStmt(const_cast<Stmt*>(s2));
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
  bool anyFalls = false;
  for (int r = 0; r < 2; ++r) {
    ir::Block* region = b_.addRegion(op);
    b_.block = region;
    const Stmt* branch = r == 0 ? s->getThen() : s->getElse();
    bool falls = branch ? stmt(branch) : true;
    if (falls) {
      b_.loc = irLoc(s->getEndLoc());
      b_.create(OpKind::Yield, flatten(cv), {});
      anyFalls = true;
    }
    vars_ = saved;
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
  bodyAssigned.TraverseStmt(const_cast<Stmt*>(s->getBody()));
  if (bodyAssigned.vars.count(iv))
    error(iv->getLocation(), "the loop induction variable may change only in the loop's increment");
  DeclRefs boundRefs;
  boundRefs.TraverseStmt(const_cast<Expr*>(boundExpr));
  if (stepExpr) boundRefs.TraverseStmt(const_cast<Expr*>(stepExpr));
  for (const VarDecl* v : boundRefs.vars)
    if (bodyAssigned.vars.count(v))
      error(boundExpr->getBeginLoc(), "the loop bound and step must not change inside the loop ('" + v->getNameAsString() + "' does)");

  Value *lb, *ub, *step;
  {
    const HintScope named = naming(iv->getNameAsString());
    lb = convert(value(iv->getInit()), ivType.elem);
    ub = value(boundExpr);
    if (ub->type.isTile()) error(boundExpr->getBeginLoc(), "the loop bound must be a scalar");
    step = stepExpr ? convert(value(stepExpr), ivType.elem) : b_.intConst(1, ivType.elem);
    if (stepSign < 0) step = unary(UnOp::Neg, step);
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
  Value* ivArg = b_.addArg(body, ivType, iv->getNameAsString());
  std::vector<Value*> args;
  for (std::size_t i = 0; i < inits.size(); ++i) args.push_back(b_.addArg(body, inits[i]->type, inits[i]->name));
  auto saved = vars_;
  vars_[iv] = CVal{ivArg, nullptr, {}, false};
  rebind(cv, args);
  nameAfter(cv, args);
  b_.block = body;
  if (stmt(s->getBody())) {
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
      if (!vd->hasLocalStorage())
        error(e->getBeginLoc(), "global variable '" + vd->getNameAsString() + "' is not a constant; kernels may use only constexpr globals");
    }
    error(e->getBeginLoc(), "'" + d->getDecl()->getNameAsString() + "' cannot be used in kernel code here");
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) return binaryOperator(b);
  if (const auto* u = dyn_cast<UnaryOperator>(e)) return unaryOperator(u);
  if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
    Value* cond = convert(value(c->getCond()), ElemType::of(Scalar::Bool));
    Type rt = typeOrError(c->getType(), c->getBeginLoc());
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
      auto ty = typeOrError(c->getType(), c->getBeginLoc());
      return CVal{toShape(b_.intConst(0, ty.elem), ty.shape), nullptr, {}, false};
    }
    error(e->getBeginLoc(), "this constructor is not supported in kernel code");
  }
  if (const auto* il = dyn_cast<InitListExpr>(e)) {
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
      Type ty = typeOrError(c->getType(), c->getBeginLoc());
      if (c->getCastKind() == CK_PointerToBoolean) {
        Value* null = b_.intConst(0, v->type.elem);
        return CVal{binary(BinOp::Ne, v, null, ElemType::of(Scalar::Bool)), nullptr, {}, false};
      }
      if (c->getCastKind() == CK_BitCast && !(v->type.elem.isPtr() && ty.elem.isPtr() && v->type.elem.pointee == ty.elem.pointee))
        error(c->getBeginLoc(), "reinterpreting casts are not supported in kernels");
      return CVal{convert(v, ty.elem), nullptr, {}, false};
    }
    case CK_NullToPointer: {
      Type ty = typeOrError(c->getType(), c->getBeginLoc());
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
      auto ty = typeOrError(bo->getLHS()->getType(), bo->getBeginLoc());
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
      auto ct = typeOrError(ca->getComputationResultType(), bo->getBeginLoc());
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
  Type rt = typeOrError(bo->getType(), bo->getBeginLoc());
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
      Type rt = typeOrError(u->getType(), u->getBeginLoc());
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
  if (v.v && v.v->name.empty() && !(v.v->def && v.v->def->kind == OpKind::Constant)) v.v->name = vd->getNameAsString();
  vars_[vd] = v;
}

// ---- calls ----

CVal Lowerer::call(const CallExpr* c) {
  const LocScope here = at(c);
  const FunctionDecl* fd = c->getDirectCallee();
  if (!fd) error(c->getBeginLoc(), "calls through function pointers are not supported in kernels");
  if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(c)) {
    if (const auto* md = dyn_cast<CXXMethodDecl>(fd); md && isTileccRecord(QualType(md->getParent()->getTypeForDecl(), 0), "tile")) {
      if (oc->getOperator() == OO_Equal) {  // tile copy/move assignment
        CVal v = lower(oc->getArg(1));
        assign(oc->getArg(0), v);
        return v;
      }
      error(c->getBeginLoc(), "indexing tiles is for host code; kernels use the tile operations");
    }
    if (const auto* md = dyn_cast<CXXMethodDecl>(fd); md && md->getParent()->getName() == "block_ptr" && oc->getOperator() == OO_Equal) {
      CVal v = lower(oc->getArg(1));
      assign(oc->getArg(0), v);
      return v;
    }
    if (inNamespace(fd, "tilecc")) return tileOperator(oc);
  }
  if (isa<CXXMemberCallExpr>(c)) error(c->getBeginLoc(), "member function calls are not supported in kernels");
  if (inNamespace(fd, "tilecc")) return apiCall(c, fd);
  // <cmath> scalar math: std:: functions or the C library's, declared in system headers.
  bool system = ctx_.getSourceManager().isInSystemHeader(fd->getLocation());
  if (system && (inNamespace(fd, "std") || fd->getDeclContext()->getRedeclContext()->isTranslationUnit()))
    return mathCall(c, fd->getName());
  if (fd->isVirtualAsWritten()) error(c->getBeginLoc(), "virtual calls are not supported in kernels");
  const FunctionDecl* def = nullptr;
  if (!fd->hasBody(def) || !def)
    error(c->getBeginLoc(), "'" + fd->getNameAsString() + "' has no body visible here; kernels may call only functions defined in the translated sources, the tilecc API and <cmath>");
  return inlineCall(c, def);
}

CVal Lowerer::inlineCall(const CallExpr* c, const FunctionDecl* fd) {
  for (const FunctionDecl* f : callStack_)
    if (f->getCanonicalDecl() == fd->getCanonicalDecl())
      error(c->getBeginLoc(), "recursion is not supported in kernels ('" + fd->getNameAsString() + "' calls itself)");
  if (fd->hasAttr<AnnotateAttr>())
    for (const auto* a : fd->specific_attrs<AnnotateAttr>())
      if (a->getAnnotation() == "tilecc.kernel") error(c->getBeginLoc(), "kernels cannot call other kernels; move the shared code into a helper function");
  std::map<const VarDecl*, CVal> callerVars = std::move(vars_);
  vars_.clear();
  for (unsigned i = 0; i < fd->getNumParams(); ++i) {
    const ParmVarDecl* p = fd->getParamDecl(i);
    QualType t = p->getType();
    if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified())
      error(p->getLocation(), "helper parameters are values or const references; '" + p->getNameAsString() + "' is a non-const reference");
    // Arguments are lowered in the caller's scope.
    std::swap(vars_, callerVars);
    CVal v = i < c->getNumArgs() ? lower(c->getArg(i)) : lower(p->getDefaultArg());
    std::swap(vars_, callerVars);
    if (v.v && !t->isReferenceType()) {
      auto ty = typeOf(t);
      if (ty && !ty->isTile() && !v.v->type.isTile()) v.v = convert(v.v, ty->elem);
    }
    vars_[p] = v;
  }
  callStack_.push_back(fd);
  const auto* body = dyn_cast<CompoundStmt>(fd->getBody());
  CVal result;
  bool returned = false;
  for (const Stmt* s : body->body()) {
    if (returned) error(s->getBeginLoc(), "helper functions may return only as their last statement");
    if (const auto* rs = dyn_cast<ReturnStmt>(s)) {
      if (rs->getRetValue()) {
        const LocScope here = at(rs);
        result = lower(rs->getRetValue());
        if (result.v) {
          auto ty = typeOf(fd->getReturnType());
          if (ty && !ty->isTile() && !result.v->type.isTile()) result.v = convert(result.v, ty->elem);
        }
      }
      returned = true;
      continue;
    }
    if (!stmt(s)) error(s->getBeginLoc(), "helper functions may return only as their last statement");
  }
  callStack_.pop_back();
  vars_ = std::move(callerVars);
  return result;
}

CVal Lowerer::mathCall(const CallExpr* c, llvm::StringRef name) {
  std::string n = name.str();
  // sqrtf, expf, ... are the float versions of the same functions.
  static const std::set<std::string> fSuffixed = {"sqrtf", "expf", "exp2f", "logf", "log2f", "sinf", "cosf", "tanf",
                                                  "tanhf", "erff", "floorf", "ceilf", "fabsf", "powf", "fminf", "fmaxf",
                                                  "fmaf", "truncf", "roundf"};
  if (fSuffixed.count(n)) n.pop_back();
  static const std::map<std::string, UnOp> unaries = {
      {"exp", UnOp::Exp},     {"exp2", UnOp::Exp2},   {"log", UnOp::Log},   {"log2", UnOp::Log2},
      {"sqrt", UnOp::Sqrt},   {"sin", UnOp::Sin},     {"cos", UnOp::Cos},   {"tan", UnOp::Tan},
      {"tanh", UnOp::Tanh},   {"erf", UnOp::Erf},     {"floor", UnOp::Floor}, {"ceil", UnOp::Ceil},
      {"fabs", UnOp::Abs},    {"abs", UnOp::Abs},     {"trunc", UnOp::Trunc}, {"round", UnOp::Round}};
  static const std::map<std::string, BinOp> binaries = {
      {"pow", BinOp::Pow}, {"fmin", BinOp::Min}, {"fmax", BinOp::Max}, {"min", BinOp::Min}, {"max", BinOp::Max}};
  Type rt = typeOrError(c->getType(), c->getBeginLoc());
  if (rt.isTile()) error(c->getBeginLoc(), "internal: a tile from a scalar math function");
  if (auto it = unaries.find(n); it != unaries.end() && c->getNumArgs() == 1)
    return CVal{unary(it->second, convert(value(c->getArg(0)), rt.elem)), nullptr, {}, false};
  if (auto it = binaries.find(n); it != binaries.end() && c->getNumArgs() == 2) {
    Value* a = convert(value(c->getArg(0)), rt.elem);
    Value* b2 = convert(value(c->getArg(1)), rt.elem);
    return CVal{binary(it->second, a, b2, rt.elem), nullptr, {}, false};
  }
  if (n == "fma" && c->getNumArgs() == 3) {
    Value* a = convert(value(c->getArg(0)), rt.elem);
    Value* b2 = convert(value(c->getArg(1)), rt.elem);
    Value* c2 = convert(value(c->getArg(2)), rt.elem);
    return CVal{b_.one(OpKind::Fma, {a, b2, c2}, rt), nullptr, {}, false};
  }
  error(c->getBeginLoc(), "'" + name.str() + "' is not supported in kernels (scalar math: exp, exp2, log, log2, sqrt, sin, cos, tan, tanh, erf, floor, ceil, trunc, round, fabs/abs, pow, fmin/fmax, min/max, fma)");
}

Value* Lowerer::elementwise(BinOp op, Value* a, Value* bv, Type result) {
  ElemType c = computeElem({a, bv});
  Value* x = to(a, c, result.shape);
  Value* y = to(bv, c, result.shape);
  return binary(op, x, y, result.elem);
}

CVal Lowerer::tileOperator(const CXXOperatorCallExpr* c) {
  const LocScope here = at(c);
  Type rt = c->getType()->isVoidType() ? Type{} : typeOrError(c->getType().getNonReferenceType(), c->getBeginLoc());
  OverloadedOperatorKind k = c->getOperator();
  auto bin = [&](OverloadedOperatorKind o) -> std::optional<BinOp> {
    switch (o) {
      case OO_Plus: case OO_PlusEqual: return BinOp::Add;
      case OO_Minus: case OO_MinusEqual: return BinOp::Sub;
      case OO_Star: case OO_StarEqual: return BinOp::Mul;
      case OO_Slash: case OO_SlashEqual: return BinOp::Div;
      case OO_Percent: case OO_PercentEqual: return BinOp::Rem;
      case OO_LessLess: case OO_LessLessEqual: return BinOp::Shl;
      case OO_GreaterGreater: case OO_GreaterGreaterEqual: return BinOp::Shr;
      case OO_Amp: case OO_AmpEqual: return BinOp::And;
      case OO_Pipe: case OO_PipeEqual: return BinOp::Or;
      case OO_Caret: case OO_CaretEqual: return BinOp::Xor;
      case OO_EqualEqual: return BinOp::Eq;
      case OO_ExclaimEqual: return BinOp::Ne;
      case OO_Less: return BinOp::Lt;
      case OO_LessEqual: return BinOp::Le;
      case OO_Greater: return BinOp::Gt;
      case OO_GreaterEqual: return BinOp::Ge;
      default: return std::nullopt;
    }
  };
  if (c->getNumArgs() == 1) {
    Value* v = value(c->getArg(0));
    switch (k) {
      case OO_Plus: return CVal{v, nullptr, {}, false};
      case OO_Minus: return CVal{unary(UnOp::Neg, v), nullptr, {}, false};
      case OO_Tilde: return CVal{unary(v->type.elem.isBool() ? UnOp::Not : UnOp::BitNot, v), nullptr, {}, false};
      case OO_Exclaim:
        if (v->type.elem.isBool()) return CVal{unary(UnOp::Not, v), nullptr, {}, false};
        return CVal{binary(BinOp::Eq, v, toShape(b_.intConst(0, v->type.elem), v->type.shape), ElemType::of(Scalar::Bool)), nullptr, {}, false};
      default: break;
    }
    error(c->getBeginLoc(), "this operator is not supported on tiles");
  }
  auto op = bin(k);
  if (!op) error(c->getBeginLoc(), "this operator is not supported on tiles");
  Value* a = value(c->getArg(0));
  Value* b2 = value(c->getArg(1));
  bool compound = c->isAssignmentOp();
  Type result = compound ? a->type : rt;
  Value* r;
  if (a->type.elem.isPtr() || b2->type.elem.isPtr()) {
    if (b2->type.elem.isPtr()) std::swap(a, b2);
    if (*op == BinOp::Sub) b2 = unary(UnOp::Neg, b2);
    r = b_.one(OpKind::AddPtr, {toShape(a, result.shape), toShape(b2, result.shape)}, result);
  } else {
    r = elementwise(*op, a, b2, result);
  }
  if (compound) assign(c->getArg(0), CVal{r, nullptr, {}, false});
  return CVal{r, nullptr, {}, false};
}

CVal Lowerer::apiCall(const CallExpr* c, const FunctionDecl* fd) {
  const LocScope here = at(c);
  std::string n = fd->getNameAsString();
  auto arg = [&](unsigned i) { return value(c->getArg(i)); };
  auto nargs = c->getNumArgs();
  auto tmplInt = [&](unsigned i) -> std::int64_t {
    const TemplateArgumentList* ta = fd->getTemplateSpecializationArgs();
    if (!ta || ta->size() <= i) error(c->getBeginLoc(), "internal: missing template argument");
    const TemplateArgument& a = ta->get(i);
    if (a.getKind() == TemplateArgument::Integral) return a.getAsIntegral().getExtValue();
    error(c->getBeginLoc(), "internal: template argument is not an integer");
  };
  auto resultType = [&]() { return typeOrError(c->getType(), c->getBeginLoc()); };
  auto ret = [](Value* v) { return CVal{v, nullptr, {}, false}; };

  if (n == "program_id" || n == "num_programs") {
    std::int64_t axis = constInt(c->getArg(0));
    if (axis < 0 || axis > 2) error(c->getArg(0)->getBeginLoc(), "the axis must be 0, 1 or 2");
    Value* v = b_.one(n == "program_id" ? OpKind::ProgramId : OpKind::NumPrograms, {}, Type::scalar(ElemType::of(Scalar::I32)));
    v->def->axis = static_cast<int>(axis);
    return ret(v);
  }
  if (n == "arange") return ret(b_.one(OpKind::Arange, {}, resultType()));
  if (n == "zeros") {
    Type t = resultType();
    return ret(toShape(b_.intConst(0, t.elem), t.shape));
  }
  if (n == "full") {
    Type t = resultType();
    return ret(toShape(convert(arg(0), t.elem), t.shape));
  }
  if (n == "cast") {
    Type t = resultType();
    return ret(convert(arg(0), t.elem));
  }
  if (n == "where") {
    Type t = resultType();
    Value* m = arg(0);
    Value* a = arg(1);
    Value* b2 = arg(2);
    ElemType ce = computeElem({a, b2});
    return ret(b_.one(OpKind::Select, {to(m, ElemType::of(Scalar::Bool), t.shape), to(a, ce, t.shape), to(b2, ce, t.shape)}, t));
  }
  if (n == "maximum" || n == "minimum") return ret(elementwise(n == "maximum" ? BinOp::Max : BinOp::Min, arg(0), arg(1), resultType()));
  if (n == "fma") {
    Type t = resultType();
    Value *a = arg(0), *b2 = arg(1), *c2 = arg(2);
    ElemType ce = computeElem({a, b2, c2});
    return ret(b_.one(OpKind::Fma, {to(a, ce, t.shape), to(b2, ce, t.shape), to(c2, ce, t.shape)}, t));
  }
  static const std::map<std::string, UnOp> unaries = {
      {"abs", UnOp::Abs},   {"exp", UnOp::Exp},   {"exp2", UnOp::Exp2},     {"log", UnOp::Log},     {"log2", UnOp::Log2},
      {"sqrt", UnOp::Sqrt}, {"rsqrt", UnOp::Rsqrt}, {"sin", UnOp::Sin},     {"cos", UnOp::Cos},     {"tanh", UnOp::Tanh},
      {"erf", UnOp::Erf},   {"sigmoid", UnOp::Sigmoid}, {"floor", UnOp::Floor}, {"ceil", UnOp::Ceil}};
  if (auto it = unaries.find(n); it != unaries.end() && nargs == 1) return ret(unary(it->second, arg(0)));
  if (n == "expand_dims" || n == "col" || n == "row") {
    std::int64_t axis = n == "col" ? 1 : n == "row" ? 0 : tmplInt(0);
    Value* v = b_.one(OpKind::ExpandDims, {arg(0)}, resultType());
    v->def->axis = static_cast<int>(axis);
    return ret(v);
  }
  if (n == "broadcast_to") return ret(toShape(arg(0), resultType().shape));
  if (n == "reshape") return ret(b_.one(OpKind::Reshape, {arg(0)}, resultType()));
  if (n == "trans") return ret(b_.one(OpKind::Trans, {arg(0)}, resultType()));
  if (n == "load") {
    CVal p = lower(c->getArg(0));
    if (p.bp) return ret(blockLoad(*p.bp, resultType()).v);
    Value* ptrs = single(p, c->getArg(0));
    Type t = resultType();
    std::vector<Value*> ops = {ptrs};
    if (nargs >= 2) ops.push_back(to(arg(1), ElemType::of(Scalar::Bool), t.shape));
    if (nargs >= 3) ops.push_back(to(arg(2), t.elem, t.shape));
    return ret(b_.one(OpKind::Load, ops, t));
  }
  if (n == "store") {
    CVal p = lower(c->getArg(0));
    if (p.bp) {
      Value* v = arg(1);
      blockStore(*p.bp, v);
      return {};
    }
    Value* ptrs = single(p, c->getArg(0));
    ElemType pe = ptrs->type.elem.pointeeType();
    std::vector<Value*> ops = {ptrs, to(arg(1), pe, ptrs->type.shape)};
    if (nargs >= 3) ops.push_back(to(arg(2), ElemType::of(Scalar::Bool), ptrs->type.shape));
    b_.create(OpKind::Store, ops, {});
    return {};
  }
  if (n == "atomic_add") {
    Value* ptrs = arg(0);
    ElemType pe = ptrs->type.elem.pointeeType();
    std::vector<Value*> ops = {ptrs, to(arg(1), pe, ptrs->type.shape)};
    if (nargs >= 3) ops.push_back(to(arg(2), ElemType::of(Scalar::Bool), ptrs->type.shape));
    return ret(b_.one(OpKind::AtomicAdd, ops, ptrs->type.withElem(pe)));
  }
  if (n == "make_block_ptr") {
    auto bp = std::make_shared<BlockPtr>();
    bp->base = arg(0);
    const TemplateArgumentList* ra = recordArgs(c->getType());
    for (const auto& a : ra->get(1).getPackAsArray()) bp->block.push_back(static_cast<int>(a.getAsIntegral().getExtValue()));
    const std::size_t r = bp->block.size();
    std::vector<Value*>* parts[] = {&bp->shape, &bp->strides, &bp->offsets};
    for (unsigned i = 0; i < 3; ++i) {
      CVal l = lower(c->getArg(i + 1));
      if (!l.isList || l.list.size() != r) error(c->getArg(i + 1)->getBeginLoc(), "expected a braced list of " + std::to_string(r) + " integers");
      for (auto& x : l.list) parts[i]->push_back(convert(single(x, c->getArg(i + 1)), ElemType::of(Scalar::I64)));
    }
    return CVal{nullptr, bp, {}, false};
  }
  if (n == "advance") {
    CVal p = lower(c->getArg(0));
    if (!p.bp) error(c->getArg(0)->getBeginLoc(), "advance() takes a block pointer");
    auto bp = std::make_shared<BlockPtr>(*p.bp);
    CVal l = lower(c->getArg(1));
    if (!l.isList || l.list.size() != bp->offsets.size()) error(c->getArg(1)->getBeginLoc(), "expected one offset per block axis");
    for (std::size_t i = 0; i < bp->offsets.size(); ++i)
      bp->offsets[i] = binary(BinOp::Add, bp->offsets[i], convert(single(l.list[i], c->getArg(1)), ElemType::of(Scalar::I64)), ElemType::of(Scalar::I64));
    return CVal{nullptr, bp, {}, false};
  }
  if (n == "multiple_of" || n == "max_contiguous") {
    const std::int64_t k = constInt(c->getArg(1));  // a constant the translator can use
    if (k <= 0) error(c->getArg(1)->getBeginLoc(), "the hint's value must be positive");
    Value* x = arg(0);
    Value* v = b_.one(OpKind::Hint, {x}, x->type);
    v->def->hint = n == "multiple_of" ? ir::HintKind::MultipleOf : ir::HintKind::MaxContiguous;
    v->def->intValue = k;
    return ret(v);
  }
  if (n == "barrier") {
    b_.create(OpKind::Barrier, {}, {});
    return {};
  }
  if (n == "sum" || n == "max" || n == "min" || n == "argmax" || n == "argmin") {
    if (nargs == 2) {  // scalar tilecc::max(a, b)
      Type t = resultType();
      Value* a = convert(arg(0), t.elem);
      Value* b2 = convert(arg(1), t.elem);
      return ret(binary(n == "max" ? BinOp::Max : BinOp::Min, a, b2, t.elem));
    }
    std::int64_t axis = tmplInt(0);
    if (axis < 0) axis = 0;
    Type t = resultType();
    Value* x = arg(0);
    ir::ReduceKind rk = n == "sum" ? ir::ReduceKind::Sum : n == "max" ? ir::ReduceKind::Max : n == "min" ? ir::ReduceKind::Min
                        : n == "argmax" ? ir::ReduceKind::ArgMax : ir::ReduceKind::ArgMin;
    if (rk == ir::ReduceKind::Sum) x = convert(x, t.elem);  // accumulate in the result type
    Value* v = b_.one(OpKind::Reduce, {x}, t);
    v->def->reduce = rk;
    v->def->axis = static_cast<int>(axis);
    return ret(v);
  }
  if (n == "dot") {
    Type t = resultType();
    Value* a = arg(0);
    Value* b2 = arg(1);
    Value* acc = nargs >= 3 ? arg(2) : toShape(b_.intConst(0, t.elem), t.shape);
    bool tf32 = false;
    if (const TemplateArgumentList* ta = fd->getTemplateSpecializationArgs(); ta && ta->size() > 0 &&
                                                                             ta->get(0).getKind() == TemplateArgument::Integral)
      tf32 = ta->get(0).getAsIntegral().getExtValue() != 0;
    Value* v = b_.one(OpKind::Dot, {a, b2, acc}, t);
    v->def->tf32 = tf32;
    return ret(v);
  }
  if (n == "cdiv") {
    Type t = resultType();
    Value* a = convert(arg(0), t.elem);
    Value* b2 = convert(arg(1), t.elem);
    Value* one = b_.intConst(1, t.elem);
    Value* num = binary(BinOp::Sub, binary(BinOp::Add, a, b2, t.elem), one, t.elem);
    return ret(binary(BinOp::Div, num, b2, t.elem));
  }
  error(c->getBeginLoc(), "'tilecc::" + n + "' cannot be used in kernel code");
}

// ---- block pointers: loads and stores through masked pointer tiles ----

std::pair<Value*, Value*> Lowerer::blockPointers(const BlockPtr& bp, ElemType ptrType) {
  const std::vector<int>& shape = bp.block;
  const int r = static_cast<int>(shape.size());
  const ElemType i64 = ElemType::of(Scalar::I64);
  Value* ptrs = nullptr;
  Value* mask = nullptr;
  for (int a = 0; a < r; ++a) {
    Value* idx = convert(b_.one(OpKind::Arange, {}, Type::tile(ElemType::of(Scalar::I32), {shape[a]})), i64);
    // Put the index along axis a of the block.
    for (int d = 0; d < r; ++d) {
      if (d == a) continue;
      std::vector<int> s = idx->type.shape;
      s.insert(s.begin() + (d < a ? 0 : static_cast<long>(s.size())), 1);
      Value* e = b_.one(OpKind::ExpandDims, {idx}, idx->type.withShape(s));
      e->def->axis = d < a ? 0 : static_cast<int>(s.size()) - 1;
      idx = e;
    }
    Value* pos = binary(BinOp::Add, toShape(bp.offsets[a], idx->type.shape), idx, i64);
    // One op per statement: argument evaluation order is unspecified, output must not be.
    Value* zero = toShape(b_.intConst(0, i64), pos->type.shape);
    Value* above = binary(BinOp::Ge, pos, zero, ElemType::of(Scalar::Bool));
    Value* limit = toShape(bp.shape[a], pos->type.shape);
    Value* below = binary(BinOp::Lt, pos, limit, ElemType::of(Scalar::Bool));
    Value* in = binary(BinOp::And, above, below, ElemType::of(Scalar::Bool));
    Value* stride = toShape(bp.strides[a], pos->type.shape);
    Value* off = binary(BinOp::Mul, pos, stride, i64);
    ptrs = b_.one(OpKind::AddPtr, {toShape(ptrs ? ptrs : bp.base, shape), toShape(off, shape)}, Type::tile(ptrType, shape));
    Value* inFull = toShape(in, shape);
    mask = mask ? binary(BinOp::And, toShape(mask, shape), inFull, ElemType::of(Scalar::Bool)) : inFull;
  }
  return {ptrs, mask};
}

CVal Lowerer::blockLoad(const BlockPtr& bp, const Type& result) {
  auto [ptrs, mask] = blockPointers(bp, bp.base->type.elem);
  Value* zero = toShape(b_.intConst(0, result.elem), result.shape);
  return CVal{b_.one(OpKind::Load, {ptrs, mask, zero}, result), nullptr, {}, false};
}

void Lowerer::blockStore(const BlockPtr& bp, Value* values) {
  auto [ptrs, mask] = blockPointers(bp, bp.base->type.elem);
  b_.create(OpKind::Store, {ptrs, to(values, bp.base->type.elem.pointeeType(), bp.block), mask}, {});
}

// ---- names of generated kernels ----

std::string argName(const TemplateArgument& a, ASTContext& ctx) {
  switch (a.getKind()) {
    case TemplateArgument::Type: {
      QualType t = a.getAsType().getCanonicalType();
      if (const auto* rd = t->getAsCXXRecordDecl()) return rd->getNameAsString();
      // <cstdint> types by their width, not by what they alias on this platform (signed char, long).
      if (t->isIntegerType() && !t->isBooleanType() && !t->isEnumeralType()) {
        const std::uint64_t bits = ctx.getTypeSize(t);
        if (bits == 8 || bits == 64) return (t->isUnsignedIntegerType() ? "uint" : "int") + std::to_string(bits);
      }
      PrintingPolicy pp(ctx.getLangOpts());
      std::string s = t.getAsString(pp);
      for (char& ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return s;
    }
    case TemplateArgument::Integral: {
      QualType t = a.getIntegralType();
      llvm::APSInt v = a.getAsIntegral();
      if (t->isBooleanType()) return v.getBoolValue() ? "true" : "false";
      if (const auto* et = t->getAs<EnumType>())
        for (const EnumConstantDecl* ec : et->getDecl()->enumerators())
          if (llvm::APSInt::isSameValue(ec->getInitVal(), v)) return ec->getNameAsString();
      std::int64_t x = v.getExtValue();
      return x < 0 ? "m" + std::to_string(-x) : std::to_string(x);
    }
    case TemplateArgument::Pack: {
      std::string s;
      for (const auto& p : a.getPackAsArray()) s += (s.empty() ? "" : "_") + argName(p, ctx);
      return s;
    }
    default: return "arg";
  }
}

}  // namespace

std::unique_ptr<ir::Kernel> lowerKernel(ASTContext& ctx, const FunctionDecl* fd) {
  auto k = std::make_unique<ir::Kernel>();
  k->name = fd->getNameAsString();
  k->sourceName = fd->getNameAsString();
  if (const TemplateArgumentList* ta = fd->getTemplateSpecializationArgs()) {
    std::string printed;
    llvm::raw_string_ostream os(printed);
    PrintingPolicy pp(ctx.getLangOpts());
    pp.SuppressScope = true;
    printTemplateArgumentList(os, ta->asArray(), pp);
    k->sourceName += os.str();
    for (const auto& a : ta->asArray()) k->name += "_" + argName(a, ctx);
  }
  // Options: TILECC_KERNEL(num_warps = 8, num_stages = 3)
  const FunctionDecl* pattern = fd->getTemplateInstantiationPattern() ? fd->getTemplateInstantiationPattern() : fd;
  DiagnosticsEngine& diags = ctx.getDiagnostics();
  for (const FunctionDecl* d : {fd, pattern}) {
    for (const auto* a : d->specific_attrs<AnnotateAttr>()) {
      if (a->getAnnotation() != "tilecc.kernel" || a->args_size() == 0) continue;
      const auto* sl = dyn_cast<StringLiteral>((*a->args_begin())->IgnoreParenImpCasts());
      if (!sl) continue;
      llvm::SmallVector<llvm::StringRef> items;
      sl->getString().split(items, ',', -1, false);
      for (llvm::StringRef item : items) {
        auto [key, val] = item.split('=');
        key = key.trim();
        val = val.trim();
        long long n = 0;
        bool bad = val.getAsInteger(10, n);
        auto report = [&](const std::string& msg) {
          diags.Report(a->getLocation(), diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << msg;
        };
        if (key == "num_warps") {
          if (bad || n < 1 || n > 32 || (n & (n - 1)) != 0) return report("num_warps must be a power of two from 1 to 32, got '" + val.str() + "'"), nullptr;
          k->numWarps = static_cast<int>(n);
        } else if (key == "num_stages") {
          if (bad || n < 1 || n > 8) return report("num_stages must be from 1 to 8, got '" + val.str() + "'"), nullptr;
          k->numStages = static_cast<int>(n);
        } else {
          return report("unknown kernel option '" + key.str() + "' (options: num_warps, num_stages)"), nullptr;
        }
      }
    }
    if (d == pattern) break;
  }
  try {
    Lowerer l(ctx, *k);
    l.kernel(fd);
  } catch (const Abort&) {
    return nullptr;
  }
  return k;
}

}  // namespace tilecc
