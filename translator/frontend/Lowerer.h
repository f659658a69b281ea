// The lowering of one kernel from Clang's AST to Tile IR, shared by the files that implement it:
// LowerStmt.cpp (the kernel, statements, control flow), LowerExpr.cpp (expressions, casts,
// operators), LowerCall.cpp (helper calls, <cmath>, the tilecc API), LowerScan.cpp (scans,
// reductions with a combine function, layouts), LowerValues.cpp (types, constants, conversions).
#pragma once

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

namespace tilecc::lowering {

using namespace clang;
using ir::BinOp;
using ir::ElemType;
using ir::OpKind;
using ir::Scalar;
using ir::Type;
using ir::UnOp;
using ir::Value;

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

inline bool inNamespace(const Decl* d, llvm::StringRef ns) {
  const DeclContext* dc = d->getDeclContext();
  while (dc && !dc->isNamespace()) dc = dc->getParent();
  if (!dc) return false;
  const auto* nd = cast<NamespaceDecl>(dc);
  return nd->getName() == ns && nd->getParent()->getRedeclContext()->isTranslationUnit();
}

inline bool isTileccRecord(QualType t, llvm::StringRef name) {
  t = t.getCanonicalType().getNonReferenceType().getUnqualifiedType();
  const auto* rd = t->getAsCXXRecordDecl();
  return rd && rd->getName() == name && inNamespace(rd, "tilecc");
}

inline const TemplateArgumentList* recordArgs(QualType t) {
  t = t.getCanonicalType().getNonReferenceType().getUnqualifiedType();
  if (const auto* s = dyn_cast_or_null<ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl()))
    return &s->getTemplateArgs();
  return nullptr;
}

/// Variables assigned (=, op=, ++, --) inside a statement.
struct AssignedVars : RecursiveASTVisitor<AssignedVars> {
  std::set<const VarDecl*> vars;
  std::map<const VarDecl*, SourceLocation> first;  // where each is first assigned (for diagnostics)
  /// A loop's induction variable, whose hint of itself (`i = multiple_of(i, c)`, Triton's
  /// `start_n = tl.multiple_of(start_n, BLOCK_N)`) keeps its value and is no write of it.
  const VarDecl* hinted = nullptr;
  static const VarDecl* varOf(const Expr* e) {
    const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  }
  bool selfHint(const BinaryOperator* b) const {
    if (!hinted || b->getOpcode() != BO_Assign || varOf(b->getLHS()) != hinted) return false;
    const auto* c = dyn_cast<CallExpr>(b->getRHS()->IgnoreParenImpCasts());
    const FunctionDecl* fd = c ? c->getDirectCallee() : nullptr;
    return fd && inNamespace(fd, "tilecc") && (fd->getName() == "multiple_of" || fd->getName() == "max_contiguous") &&
           c->getNumArgs() >= 2 && varOf(c->getArg(0)) == hinted;
  }
  void note(const Expr* e) {
    if (const VarDecl* v = varOf(e)) {
      vars.insert(v);
      first.emplace(v, e->IgnoreParenImpCasts()->getBeginLoc());
    }
  }
  bool VisitBinaryOperator(BinaryOperator* b) {
    if (b->isAssignmentOp() && !selfHint(b)) note(b->getLHS());
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
  // A helper's non-const reference parameter assigns the variable it is given.
  bool VisitCallExpr(CallExpr* c) {
    const FunctionDecl* fd = c->getDirectCallee();
    if (!fd || isa<CXXOperatorCallExpr>(c)) return true;
    for (unsigned i = 0; i < fd->getNumParams() && i < c->getNumArgs(); ++i) {
      const QualType t = fd->getParamDecl(i)->getType();
      if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified()) note(c->getArg(i));
    }
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

/// Whether a statement returns somewhere inside (lambdas' own returns do not count).
struct ReturnFinder : RecursiveASTVisitor<ReturnFinder> {
  bool found = false;
  SourceLocation at;  // the first return's
  bool TraverseLambdaExpr(LambdaExpr*) { return true; }
  bool VisitReturnStmt(ReturnStmt* r) {
    found = true;
    at = r->getReturnLoc();
    return false;
  }
};
inline bool containsReturn(const Stmt* s) {
  ReturnFinder f;
  f.TraverseStmt(const_cast<Stmt*>(s));
  return f.found;
}

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
  /// Inside a combine function (scan, reduce): only element arithmetic is allowed.
  int combineDepth_ = 0;
  /// A helper's `return` from inside a loop: the loop runs on with the rest of each iteration
  /// guarded by !done, and `ret` keeps the value (null for void). Both are carried like
  /// variables through the ifs and loops around them (flatten/rebind add them last).
  struct Exit {
    Value* done = nullptr;
    Value* ret = nullptr;
  };
  std::optional<Exit> exit_;

  // ---- diagnostics ----
  [[noreturn]] void error(SourceLocation loc, const std::string& msg) {
    diags_.Report(loc, diags_.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << msg;
    throw Abort{};
  }
  /// An error with a note at a second place (the declaration the rule is about, say).
  [[noreturn]] void error(SourceLocation loc, const std::string& msg, SourceLocation noteLoc, const std::string& noteMsg) {
    diags_.Report(loc, diags_.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << msg;
    diags_.Report(noteLoc, diags_.getCustomDiagID(DiagnosticsEngine::Note, "%0")) << noteMsg;
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
  [[nodiscard]] LocScope at(const Stmt* s) { return LocScope{b_, std::exchange(b_.loc, irLoc(beginLoc(s)))}; }
  /// s->getBeginLoc(), memoised down left operand chains (Clang walks the whole chain per call).
  SourceLocation beginLoc(const Stmt* s) {
    std::vector<const Stmt*> spine;
    SourceLocation l;
    for (const Stmt* x = s;;) {
      if (auto it = begins_.find(x); it != begins_.end()) {
        l = it->second;
        break;
      }
      spine.push_back(x);
      if (const auto* b = dyn_cast<BinaryOperator>(x)) x = b->getLHS();
      else if (const auto* c = dyn_cast<ImplicitCastExpr>(x)) x = c->getSubExpr();
      else {
        l = x->getBeginLoc();
        break;
      }
    }
    for (const Stmt* x : spine) begins_[x] = l;
    return l;
  }
  std::map<const Stmt*, SourceLocation> begins_;
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
  std::optional<ElemType> elemOf(QualType t);
  std::optional<Type> typeOf(QualType t);
  Type typeOrError(QualType t, SourceLocation loc);
  /// The same, located at `at`'s start (computed only for the error).
  Type typeOrError(QualType t, const Stmt* at) {
    if (auto ty = typeOf(t)) return *ty;
    return typeOrError(t, beginLoc(at));
  }

  // ---- value helpers ----
  Value* convert(Value* v, ElemType e) {
    if (v->type.elem == e) return v;
    return b_.one(OpKind::Convert, {v}, v->type.withElem(e));
  }
  Value* toShape(Value* v, const std::vector<int>& shape);
  Value* to(Value* v, ElemType e, const std::vector<int>& shape) { return toShape(convert(v, e), shape); }
  Value* binary(BinOp op, Value* a, Value* b2, ElemType resultElem) {
    return b_.binary(op, a, b2, resultElem);
  }
  Value* unary(UnOp op, Value* a) { return b_.unary(op, a); }

  /// The element type operands of an elementwise op convert to (the header's compute_t, contract
  /// v1): integer tiles of different widths promote to the wider; an integer tile with a floating
  /// scalar computes in f32, and one narrower than 64 bits with a 64-bit integer scalar in i64.
  ElemType computeElem(const std::vector<Value*>& ops);

  Value* single(const CVal& c, const Expr* e) {
    if (!c.v) error(e->getBeginLoc(), "a block pointer or braced list cannot be used here");
    return c.v;
  }
  Value* value(const Expr* e) { return single(lower(e), e); }

  std::int64_t constInt(const Expr* e);
  std::optional<Value*> constant(const Expr* e);
  /// Whether `e` reads a parameter or a mutable variable through operators that evaluate every
  /// operand (then Clang's evaluator need not walk it). Memoised.
  bool surelyNotConstant(const Expr* e);
  std::set<const Expr*> notConstant_, maybeConstant_;

  // ---- statements ----
  bool stmt(const Stmt* s);  // false when control cannot fall through (return)
  bool compound(const CompoundStmt* cs);
  bool ifStmt(const IfStmt* s);
  bool forStmt(const ForStmt* s);
  void declStmt(const DeclStmt* ds);
  std::vector<const VarDecl*> carried(const Stmt* s1, const Stmt* s2 = nullptr);
  std::vector<const VarDecl*> carried(const std::vector<const Stmt*>& stmts);
  /// Statements in order; with exit_ active, those after one that may return run under !done.
  bool sequence(const std::vector<const Stmt*>& stmts, std::size_t from = 0);
  /// `stmts` under `if (!done)`, what they assign carried out.
  void unlessDone(const std::vector<const Stmt*>& stmts);
  /// The helper loop `s` that returns from inside, then the rest of the helper.
  std::optional<CVal> loopWithReturn(const FunctionDecl* fd, const Stmt* s, const std::vector<const Stmt*>& rest);
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
  /// The body of helper `fd`, its parameters bound in vars_: its return value (none for void).
  CVal inlineBody(const FunctionDecl* fd);
  /// Statements of a helper until one returns; nullopt when control reaches their end. An `if`
  /// that returns on one path takes the statements after it into both branches.
  std::optional<CVal> helperTail(const FunctionDecl* fd, std::vector<const Stmt*> stmts);
  CVal returnValue(const FunctionDecl* fd, const ReturnStmt* rs);

  // ---- scans, reductions with a combine function, layouts (LowerScan.cpp) ----
  CVal scanCall(const CallExpr* c, const FunctionDecl* fd, const std::string& n);
  /// The function `f` (a lambda, function object or function) that combines two `elem`s.
  const FunctionDecl* combineFunction(const Expr* f, QualType elem);
  /// `op`'s combine region: f applied to the region's two arguments, yielding an element.
  void combineRegion(ir::Op* op, const FunctionDecl* f, ElemType e, const Expr* where);
  CVal withLayout(const CallExpr* c, const FunctionDecl* fd);
  Value* elementwise(BinOp op, Value* a, Value* bv, Type result);
  void assign(const Expr* lhs, CVal v);
  /// A local variable takes `v` (named after it where `v` has no name yet).
  void setVar(const VarDecl* vd, CVal v);
  CVal blockLoad(const BlockPtr& bp, const Type& result);
  void blockStore(const BlockPtr& bp, Value* values);
  std::pair<Value*, Value*> blockPointers(const BlockPtr& bp, ElemType pointee);
};

}  // namespace tilecc::lowering
