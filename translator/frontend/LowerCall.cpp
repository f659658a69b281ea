// Calls: helpers (inlined), <cmath> scalar math, operators on tiles, the tilecc API, block pointers.
#include "frontend/Lowerer.h"

#include <limits>
#include <set>

namespace tilecc::lowering {

namespace {
// The <cmath> functions kernels may call on scalars (float versions with an `f` suffix too).
const char* const kScalarMath =
    "exp, exp2, expm1, log, log2, log10, log1p, sqrt, cbrt, pow, hypot, sin, cos, tan, asin, acos, atan, atan2, sinh, "
    "cosh, tanh, asinh, acosh, atanh, erf, erfc, tgamma, lgamma, floor, ceil, trunc, round, rint, nearbyint, fabs/abs, "
    "fmod, remainder, copysign, fdim, ldexp/scalbn/scalbln, fmin/fmax, min/max, fma, lround/llround, lrint/llrint, isnan, isinf, "
    "isfinite, isnormal, signbit";
}  // namespace

// ---- calls ----

CVal Lowerer::call(const CallExpr* c) {
  const LocScope here = at(c);
  const FunctionDecl* fd = c->getDirectCallee();
  if (!fd) error(c->getBeginLoc(), "calls through function pointers are not supported in kernels");
  if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(c)) {
    // Copy and move assignment of the language's class types (tiles, block pointers, half and
    // bfloat16 scalars) is an assignment like any other.
    if (const auto* md = dyn_cast<CXXMethodDecl>(fd);
        md && oc->getOperator() == OO_Equal && (md->isCopyAssignmentOperator() || md->isMoveAssignmentOperator()) &&
        inNamespace(md, "tilecc")) {
      CVal v = lower(oc->getArg(1));
      assign(oc->getArg(0), v);
      return v;
    }
    if (const auto* md = dyn_cast<CXXMethodDecl>(fd); md && isTileccRecord(QualType(md->getParent()->getTypeForDecl(), 0), "tile"))
      error(c->getBeginLoc(), "indexing tiles is for host code; kernels use the tile operations");
    if (inNamespace(fd, "tilecc")) return tileOperator(oc);
  }
  if (const auto* mc = dyn_cast<CXXMemberCallExpr>(c)) {
    // float(h), static_cast<float>(h): half's and bfloat16's conversion operators.
    if (const auto* conv = dyn_cast<CXXConversionDecl>(fd);
        conv && (isTileccRecord(mc->getObjectType(), "half") || isTileccRecord(mc->getObjectType(), "bfloat16"))) {
      const Type t = typeOrError(conv->getConversionType(), c);
      return CVal{convert(value(mc->getImplicitObjectArgument()), t.elem), nullptr, {}, false};
    }
    error(c->getBeginLoc(), "member function calls are not supported in kernels");
  }
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
  // Non-const reference parameters (in-out, as Triton's tuple-returning helpers are written in
  // C++): bound to a local variable of the caller, whose value becomes the parameter's at the
  // helper's end.
  std::vector<std::pair<const ParmVarDecl*, const VarDecl*>> inOut;
  for (unsigned i = 0; i < fd->getNumParams(); ++i) {
    const ParmVarDecl* p = fd->getParamDecl(i);
    QualType t = p->getType();
    if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified()) {
      const Expr* arg = i < c->getNumArgs() ? c->getArg(i)->IgnoreParenImpCasts() : nullptr;
      const auto* ref = arg ? dyn_cast<DeclRefExpr>(arg) : nullptr;
      const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
      if (!var || !callerVars.count(var))
        error(arg ? arg->getBeginLoc() : c->getBeginLoc(),
              "a non-const reference parameter ('" + p->getNameAsString() + "') takes a local variable of the caller");
      if (const auto* body = dyn_cast_or_null<CompoundStmt>(fd->getBody()))
        for (const Stmt* s : body->body()) {
          ReturnFinder r;
          r.TraverseStmt(const_cast<Stmt*>(s));
          if (s != body->body_back() && r.found)
            error(r.at, "a helper with a non-const reference parameter ('" + p->getNameAsString() + "') may return only at its end",
                  p->getLocation(), "'" + p->getNameAsString() + "' is declared here");
        }
      inOut.push_back({p, var});
    }
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
  const std::optional<Exit> callerExit = std::exchange(exit_, std::nullopt);  // the callee's returns are its own
  CVal result = inlineBody(fd);
  exit_ = callerExit;
  callStack_.pop_back();
  std::vector<CVal> outs;  // the parameters' last values, for the caller's variables
  for (const auto& io : inOut) outs.push_back(vars_.at(io.first));
  vars_ = std::move(callerVars);
  for (std::size_t i = 0; i < inOut.size(); ++i) setVar(inOut[i].second, std::move(outs[i]));
  return result;
}

CVal Lowerer::inlineBody(const FunctionDecl* fd) {
  const auto* body = dyn_cast_or_null<CompoundStmt>(fd->getBody());
  if (!body) error(fd->getLocation(), "'" + fd->getNameAsString() + "': function-try-blocks are not supported in kernels");
  std::optional<CVal> r = helperTail(fd, std::vector<const Stmt*>(body->body_begin(), body->body_end()));
  if (r) return *r;
  if (!fd->getReturnType()->isVoidType())
    error(body->getRBracLoc(), "'" + fd->getNameAsString() + "' can reach its end without returning a value");
  return {};
}

CVal Lowerer::returnValue(const FunctionDecl* fd, const ReturnStmt* rs) {
  if (!rs->getRetValue()) return {};
  const LocScope here = at(rs);
  CVal result = lower(rs->getRetValue());
  if (result.v) {
    auto ty = typeOf(fd->getReturnType());
    if (ty && !ty->isTile() && !result.v->type.isTile()) result.v = convert(result.v, ty->elem);
  }
  return result;
}

std::optional<CVal> Lowerer::helperTail(const FunctionDecl* fd, std::vector<const Stmt*> stmts) {
  for (std::size_t i = 0; i < stmts.size(); ++i) {
    const Stmt* s = stmts[i];
    if (const auto* rs = dyn_cast<ReturnStmt>(s)) return returnValue(fd, rs);
    if (!containsReturn(s)) {
      stmt(s);
      continue;
    }
    // The rest of the helper runs after `s` on the paths that do not return: it goes into them.
    std::vector<const Stmt*> rest(stmts.begin() + static_cast<long>(i) + 1, stmts.end());
    auto then = [&](std::vector<const Stmt*> first) {
      first.insert(first.end(), rest.begin(), rest.end());
      return first;
    };
    if (const auto* cs = dyn_cast<CompoundStmt>(s)) return helperTail(fd, then({cs->body_begin(), cs->body_end()}));
    const auto* is = dyn_cast<IfStmt>(s);
    if (!is) return loopWithReturn(fd, s, rest);
    const LocScope here = at(is);
    if (is->getInit()) stmt(is->getInit());
    if (is->getConditionVariableDeclStmt()) declStmt(is->getConditionVariableDeclStmt());
    if (is->isConstexpr()) {
      const Stmt* branch = constInt(is->getCond()) != 0 ? is->getThen() : is->getElse();
      return helperTail(fd, branch ? then({branch}) : rest);
    }
    Value* cond;
    {
      const HintScope named = naming("cond");
      cond = value(is->getCond());
      if (cond->type.isTile()) error(is->getCond()->getBeginLoc(), "a tile is never a condition; use masks and where()");
      cond = convert(cond, ElemType::of(Scalar::Bool));
    }
    std::vector<Type> types;
    if (!fd->getReturnType()->isVoidType()) types.push_back(typeOrError(fd->getReturnType(), fd->getLocation()));
    ir::Op* op = b_.create(OpKind::If, {cond}, types);
    ir::Block* outer = b_.block;
    const auto saved = vars_;
    for (int r = 0; r < 2; ++r) {
      b_.block = b_.addRegion(op);
      const Stmt* branch = r == 0 ? is->getThen() : is->getElse();
      std::optional<CVal> v = helperTail(fd, branch ? then({branch}) : rest);
      if (!v && !types.empty())
        error(dyn_cast<CompoundStmt>(fd->getBody())->getRBracLoc(),
              "'" + fd->getNameAsString() + "' can reach its end without returning a value");
      std::vector<Value*> yielded;
      if (!types.empty()) {
        if (!v->v) error(is->getBeginLoc(), "a helper that returns a block pointer or a list returns only at its end");
        yielded.push_back(v->v->type.isTile() ? v->v : convert(v->v, types[0].elem));
      }
      b_.create(OpKind::Yield, yielded, {});
      vars_ = saved;
    }
    b_.block = outer;
    return types.empty() ? CVal{} : CVal{op->result(), nullptr, {}, false};
  }
  return std::nullopt;
}

CVal Lowerer::mathCall(const CallExpr* c, llvm::StringRef name) {
  std::string n = name.str();
  static const std::map<std::string, UnOp> unaries = {
      {"exp", UnOp::Exp},     {"exp2", UnOp::Exp2},   {"log", UnOp::Log},   {"log2", UnOp::Log2},
      {"sqrt", UnOp::Sqrt},   {"sin", UnOp::Sin},     {"cos", UnOp::Cos},   {"tan", UnOp::Tan},
      {"tanh", UnOp::Tanh},   {"erf", UnOp::Erf},     {"floor", UnOp::Floor}, {"ceil", UnOp::Ceil},
      {"fabs", UnOp::Abs},    {"abs", UnOp::Abs},     {"trunc", UnOp::Trunc}, {"round", UnOp::Round},
      {"log10", UnOp::Log10}, {"log1p", UnOp::Log1p}, {"expm1", UnOp::Expm1}, {"cbrt", UnOp::Cbrt},
      {"asin", UnOp::Asin},   {"acos", UnOp::Acos},   {"atan", UnOp::Atan},   {"sinh", UnOp::Sinh},
      {"cosh", UnOp::Cosh},   {"asinh", UnOp::Asinh}, {"acosh", UnOp::Acosh}, {"atanh", UnOp::Atanh},
      {"erfc", UnOp::Erfc},   {"tgamma", UnOp::Tgamma}, {"lgamma", UnOp::Lgamma}, {"rint", UnOp::Rint},
      {"nearbyint", UnOp::Rint}};
  static const std::map<std::string, BinOp> binaries = {
      {"pow", BinOp::Pow},     {"fmin", BinOp::Min},    {"fmax", BinOp::Max},   {"min", BinOp::Min},
      {"max", BinOp::Max},     {"atan2", BinOp::Atan2}, {"hypot", BinOp::Hypot}, {"fmod", BinOp::Fmod},
      {"copysign", BinOp::Copysign}, {"remainder", BinOp::Remainder}, {"ldexp", BinOp::Ldexp}, {"scalbn", BinOp::Ldexp},
      {"scalbln", BinOp::Ldexp}};
  // Composed of other ops below.
  static const std::set<std::string> composed = {"fma", "fdim", "lround", "llround", "lrint", "llrint"};
  // sqrtf, expf, ... are the float versions of the same functions (erf stays erf).
  if (n.size() > 1 && n.back() == 'f') {
    const std::string base = n.substr(0, n.size() - 1);
    if (unaries.count(base) || binaries.count(base) || composed.count(base)) n = base;
  }
  Type rt = typeOrError(c->getType(), c);
  if (rt.isTile()) error(c->getBeginLoc(), "internal: a tile from a scalar math function");
  // Classification, from comparisons (exact): NaN is the value unequal to itself; infinities and
  // NaN are the values whose magnitude is not below infinity; normal values' magnitudes lie in
  // [FLT_MIN, infinity); signbit is the sign of copysign(1, x), which reads the sign bit of zeros
  // and NaNs too.
  if ((n == "isnan" || n == "isinf" || n == "isfinite" || n == "isnormal" || n == "signbit") && c->getNumArgs() == 1) {
    const ElemType f32 = ElemType::of(Scalar::F32), b1 = ElemType::of(Scalar::Bool);
    const auto result = [](Value* v) { return CVal{v, nullptr, {}, false}; };
    const auto inf = [&] { return b_.floatConst(std::numeric_limits<float>::infinity(), f32); };
    Value* x = convert(value(c->getArg(0)), f32);
    if (n == "isnan") return result(binary(BinOp::Ne, x, x, b1));
    if (n == "signbit")
      return result(binary(BinOp::Lt, binary(BinOp::Copysign, b_.floatConst(1.0f, f32), x, f32), b_.floatConst(0.0f, f32), b1));
    Value* mag = unary(UnOp::Abs, x);
    if (n == "isnormal") {
      Value* normal = binary(BinOp::Ge, mag, b_.floatConst(std::numeric_limits<float>::min(), f32), b1);
      return result(binary(BinOp::And, normal, binary(BinOp::Lt, mag, inf(), b1), b1));
    }
    return result(binary(n == "isinf" ? BinOp::Eq : BinOp::Lt, mag, inf(), b1));
  }
  // lround/llround/lrint/llrint: round (half away from zero) or rint (to nearest even), then the
  // conversion to the integer result (saturating, as CUDA's cvt; C++ leaves overflow unspecified).
  if ((n == "lround" || n == "llround" || n == "lrint" || n == "llrint") && c->getNumArgs() == 1) {
    Value* x = convert(value(c->getArg(0)), ElemType::of(Scalar::F32));
    return CVal{convert(unary(n == "lround" || n == "llround" ? UnOp::Round : UnOp::Rint, x), rt.elem), nullptr, {}, false};
  }
  // fdim: a - b where a > b, +0 where a <= b, NaN where either is NaN (neither comparison holds).
  if (n == "fdim" && c->getNumArgs() == 2) {
    Value* a = convert(value(c->getArg(0)), rt.elem);
    Value* b2 = convert(value(c->getArg(1)), rt.elem);
    Value* notAbove = binary(BinOp::Le, a, b2, ElemType::of(Scalar::Bool));
    return CVal{b_.one(OpKind::Select, {notAbove, b_.floatConst(0.0f, rt.elem), binary(BinOp::Sub, a, b2, rt.elem)}, rt), nullptr, {}, false};
  }
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
  error(c->getBeginLoc(), "'" + name.str() + "' is not supported in kernels (scalar math: " + kScalarMath + ")");
}

Value* Lowerer::elementwise(BinOp op, Value* a, Value* bv, Type result) {
  ElemType c = computeElem({a, bv});
  Value* x = to(a, c, result.shape);
  Value* y = to(bv, c, result.shape);
  return binary(op, x, y, result.elem);
}

CVal Lowerer::tileOperator(const CXXOperatorCallExpr* c) {
  const LocScope here = at(c);
  Type rt = c->getType()->isVoidType() ? Type{} : typeOrError(c->getType().getNonReferenceType(), c);
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
  auto resultType = [&]() { return typeOrError(c->getType(), c); };
  auto ret = [](Value* v) { return CVal{v, nullptr, {}, false}; };
  if (combineDepth_ > 0) {  // a combine function sees two elements, nothing else
    static const std::set<std::string> memory = {"load", "store", "atomic_add", "make_block_ptr", "advance", "barrier"};
    if (memory.count(n) || (!c->getType()->isVoidType() && typeOf(c->getType()) && typeOf(c->getType())->isTile()))
      error(c->getBeginLoc(), "a combine function computes with its two elements only; 'tilecc::" + n + "' cannot be used in it");
  }

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
  if (n == "pow") return ret(elementwise(BinOp::Pow, arg(0), arg(1), resultType()));
  if (n == "cumsum" || n == "cumprod" || n == "scan" || n == "reduce") return scanCall(c, fd, n);
  if (n == "with_layout") return withLayout(c, fd);
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
      {"erf", UnOp::Erf},   {"sigmoid", UnOp::Sigmoid}, {"floor", UnOp::Floor}, {"ceil", UnOp::Ceil},
      {"round", UnOp::Round}, {"fast_exp", UnOp::FastExp}, {"fast_exp2", UnOp::FastExp2}};
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

}  // namespace tilecc::lowering
