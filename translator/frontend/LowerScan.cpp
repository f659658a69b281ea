// Scans (cumsum, cumprod, scan), reductions with a combine function (reduce), and the user's
// layouts (with_layout). A combine function — a lambda, a function object or a function — is
// inlined into the op's region, applied to the region's two element arguments.
#include "frontend/Lowerer.h"

#include "ir/OpTraits.h"
#include "ir/TaskMapping.h"

#include <clang/AST/DeclCXX.h>

namespace tilecc::lowering {

namespace {

// The element type of a tile type (tile<T, D...>).
QualType tileElement(QualType t) {
  const TemplateArgumentList* args = recordArgs(t);
  return args ? args->get(0).getAsType() : QualType();
}

bool sameType(QualType a, QualType b) {
  auto norm = [](QualType t) { return t.getNonReferenceType().getCanonicalType().getUnqualifiedType(); };
  return norm(a) == norm(b);
}

// A task mapping type (spatial<...>, repeat<...>, compose<...> in namespace tilecc), flattened.
bool taskMapping(QualType t, ir::TaskMapping& out) {
  t = t.getCanonicalType();
  const auto* rd = t->getAsCXXRecordDecl();
  const TemplateArgumentList* args = recordArgs(t);
  if (!rd || !args || !inNamespace(rd, "tilecc")) return false;
  const llvm::StringRef n = rd->getName();
  if (n == "compose") {
    for (const auto& a : args->get(0).getPackAsArray())
      if (a.getKind() != TemplateArgument::Type || !taskMapping(a.getAsType(), out)) return false;
    return true;
  }
  if (n != "spatial" && n != "repeat") return false;
  ir::TaskMapping::Part p;
  p.spatial = n == "spatial";
  for (const auto& a : args->get(0).getPackAsArray()) p.extents.push_back(static_cast<int>(a.getAsIntegral().getExtValue()));
  out.parts.push_back(std::move(p));
  return true;
}

}  // namespace

CVal Lowerer::scanCall(const CallExpr* c, const FunctionDecl* fd, const std::string& n) {
  const TemplateArgumentList* ta = fd->getTemplateSpecializationArgs();
  if (!ta || ta->size() == 0 || ta->get(0).getKind() != TemplateArgument::Integral)
    error(c->getBeginLoc(), "internal: '" + n + "' without its axis");
  const int axis = std::max<int>(0, static_cast<int>(ta->get(0).getAsIntegral().getExtValue()));
  const Type t = typeOrError(c->getType(), c);
  Value* x = value(c->getArg(0));
  const bool isScan = n != "reduce";
  // cumsum and cumprod accumulate in their result type (float for half, int for 8-bit and bool).
  if (n == "cumsum" || n == "cumprod") x = convert(x, t.elem);
  ir::Op* op = b_.create(isScan ? OpKind::Scan : OpKind::Reduce, {x}, {t});
  op->axis = axis;
  op->reduce = n == "cumsum" ? ir::ReduceKind::Sum : n == "cumprod" ? ir::ReduceKind::Prod : ir::ReduceKind::Custom;
  if (op->reduce == ir::ReduceKind::Custom) {
    const QualType elem = tileElement(c->getArg(0)->getType());
    combineRegion(op, combineFunction(c->getArg(1), elem), x->type.elem, c->getArg(1));
  }
  return CVal{op->result(), nullptr, {}, false};
}

const FunctionDecl* Lowerer::combineFunction(const Expr* f, QualType elem) {
  // A closure or function object: its call operator taking two elements.
  if (const auto* rd = f->getType().getNonReferenceType()->getAsCXXRecordDecl()) {
    if (rd->isLambda() && !rd->isGenericLambda()) return rd->getLambdaCallOperator();
    std::vector<const FunctionDecl*> candidates;
    auto consider = [&](const FunctionDecl* m) {
      if (m->getNumParams() == 2) candidates.push_back(m);
    };
    for (const NamedDecl* nd : rd->lookup(ctx_.DeclarationNames.getCXXOperatorName(OO_Call))) {
      if (const auto* m = dyn_cast<CXXMethodDecl>(nd)) consider(m);
      if (const auto* ft = dyn_cast<FunctionTemplateDecl>(nd))
        for (const FunctionDecl* s : ft->specializations()) consider(s);
    }
    for (const FunctionDecl* m : candidates)  // the one taking the elements as they are
      if (sameType(m->getParamDecl(0)->getType(), elem) && sameType(m->getParamDecl(1)->getType(), elem)) return m;
    if (candidates.size() == 1) return candidates[0];
    error(f->getBeginLoc(), "cannot tell which call operator of '" + rd->getNameAsString() +
                                "' combines two elements; give it one operator()(T, T) for the tile's element type T");
  }
  // A function, by name, by address, or through a constant.
  const Expr* e = f;
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
      e = u->getSubExpr();
      continue;
    }
    const auto* d = dyn_cast<DeclRefExpr>(e);
    if (!d) break;
    if (const auto* fn = dyn_cast<FunctionDecl>(d->getDecl())) return fn;
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    if (!v || !v->getInit() || !(v->getType().isConstQualified() || v->isConstexpr()))
      error(f->getBeginLoc(), "a combine function passed through a variable needs a const variable initialised with it");
    e = v->getInit();
  }
  error(f->getBeginLoc(), "the combine function must be a lambda without captures, a function object or a function");
}

void Lowerer::combineRegion(ir::Op* op, const FunctionDecl* f, ElemType e, const Expr* where) {
  for (const FunctionDecl* g : callStack_)
    if (g->getCanonicalDecl() == f->getCanonicalDecl())
      error(where->getBeginLoc(), "recursion is not supported in kernels ('" + f->getNameAsString() + "' is used inside itself)");
  const FunctionDecl* def = nullptr;
  const bool system = ctx_.getSourceManager().isInSystemHeader(f->getLocation());
  if ((!f->hasBody(def) || !def) && !system)
    error(where->getBeginLoc(), "the combine function '" + f->getNameAsString() + "' has no body visible here");
  const LocScope here = at(where);
  ir::Block* outer = b_.block;
  ir::Block* region = b_.addRegion(op);
  b_.block = region;
  const Type scalar = Type::scalar(e);
  Value* a = b_.addArg(region, scalar, f->getNumParams() == 2 ? f->getParamDecl(0)->getNameAsString() : "a");
  Value* b2 = b_.addArg(region, scalar, f->getNumParams() == 2 ? f->getParamDecl(1)->getNameAsString() : "b");
  if (a->name.empty()) a->name = "a";
  if (b2->name.empty() || b2->name == a->name) b2->name = a->name + "_2";
  Value* result = nullptr;
  if (system) {  // fmaxf and the like, by name: no body to inline
    static const std::map<std::string, BinOp> known = {{"fmax", BinOp::Max}, {"fmaxf", BinOp::Max}, {"fmin", BinOp::Min},
                                                       {"fminf", BinOp::Min}, {"max", BinOp::Max},  {"min", BinOp::Min}};
    auto it = known.find(f->getNameAsString());
    if (it == known.end()) error(where->getBeginLoc(), "the combine function '" + f->getNameAsString() + "' has no body visible here");
    result = binary(it->second, a, b2, e);
  } else {
    std::map<const VarDecl*, CVal> callerVars = std::move(vars_);
    vars_.clear();
    Value* args[] = {a, b2};
    for (unsigned i = 0; i < 2; ++i) {
      const ParmVarDecl* p = def->getParamDecl(i);
      auto ty = typeOf(p->getType().getNonReferenceType());
      if (!ty || ty->isTile()) error(p->getLocation(), "a combine function takes two elements");
      vars_[p] = CVal{convert(args[i], ty->elem), nullptr, {}, false};
    }
    callStack_.push_back(def);
    ++combineDepth_;
    const std::optional<Exit> callerExit = std::exchange(exit_, std::nullopt);
    CVal r = inlineBody(def);
    exit_ = callerExit;
    --combineDepth_;
    callStack_.pop_back();
    vars_ = std::move(callerVars);
    if (!r.v || r.v->type.isTile()) error(where->getBeginLoc(), "a combine function returns one element");
    result = convert(r.v, e);
  }
  b_.create(OpKind::Yield, {result}, {});
  b_.block = outer;
  // What the combine may contain: element arithmetic and control flow over it.
  walk(*region, [&](const ir::Op& o) {
    const bool ok = ir::traits(o.kind).pure || o.kind == OpKind::Yield || o.kind == OpKind::If || o.kind == OpKind::For;
    bool tile = false;
    for (const Value* v : o.results) tile |= v->type.isTile();
    if (!ok || tile)
      error(where->getBeginLoc(), std::string("a combine function computes with its two elements only; it cannot use '") +
                                      ir::traits(o.kind).name + "'" + (o.loc.line ? " (line " + std::to_string(o.loc.line) + ")" : ""));
  });
}

CVal Lowerer::withLayout(const CallExpr* c, const FunctionDecl* fd) {
  const TemplateArgumentList* ta = fd->getTemplateSpecializationArgs();
  ir::TaskMapping m;
  if (!ta || ta->size() == 0 || ta->get(0).getKind() != TemplateArgument::Type || !taskMapping(ta->get(0).getAsType(), m))
    error(c->getBeginLoc(), "with_layout<M> takes a task mapping: spatial<...>, repeat<...> or compose<...> of those");
  Value* x = value(c->getArg(0));
  if (!x->type.isTile()) error(c->getArg(0)->getBeginLoc(), "with_layout applies to tiles");
  std::string why;
  auto l = ir::toLayout(m, k_.numWarps, &why);
  if (!l) error(c->getBeginLoc(), "the layout " + ir::describe(m) + " cannot be used here: " + why);
  Value* v = b_.one(OpKind::Hint, {x}, x->type);
  v->def->hint = ir::HintKind::Layout;
  v->def->intValue = k_.internLayout(*l);
  v->layout = static_cast<int>(v->def->intValue);
  return CVal{v, nullptr, {}, false};
}

}  // namespace tilecc::lowering
