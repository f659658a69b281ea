// Entry point of the lowering: the kernel's generated name, its options, then the Lowerer.
#include "frontend/Lowering.h"

#include "frontend/Family.h"
#include "frontend/Lowerer.h"
#include "frontend/OptionExpr.h"

#include <llvm/Support/raw_ostream.h>

namespace tilecc {

using namespace clang;
using lowering::Abort;
using lowering::Lowerer;

namespace {

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

// A name in an option's value: a template parameter of the kernel (its value in this
// instantiation), or a constexpr integer variable or enumerator seen from the kernel (`kStages`,
// `cfg::kWarps`).
std::optional<long long> optionName(const std::string& name, std::string& why, ASTContext& ctx, const FunctionDecl* fd,
                                    const FunctionDecl* pattern) {
  const FunctionTemplateDecl* ft = pattern->getDescribedFunctionTemplate();
  const TemplateArgumentList* ta = fd->getTemplateSpecializationArgs();
  if (ft && ta) {
    const TemplateParameterList* tpl = ft->getTemplateParameters();
    for (unsigned i = 0; i < tpl->size() && i < ta->size(); ++i)
      if (tpl->getParam(i)->getName() == name) {
        if (ta->get(i).getKind() == TemplateArgument::Integral) return ta->get(i).getAsIntegral().getExtValue();
        why = "template parameter '" + name + "' is not an integer";
        return std::nullopt;
      }
  }
  // `a::b::c`: namespaces from the translation unit; a plain name: from the kernel's scope out.
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(name).split(parts, "::");
  if (!parts.empty() && parts.front().empty()) parts.erase(parts.begin());
  std::vector<const DeclContext*> scopes;
  if (parts.size() == 1) {
    for (const DeclContext* dc = pattern->getDeclContext(); dc; dc = dc->getParent()) scopes.push_back(dc);
  } else {
    const DeclContext* dc = ctx.getTranslationUnitDecl();
    for (std::size_t i = 0; dc && i + 1 < parts.size(); ++i) {
      const DeclContext* next = nullptr;
      for (const NamedDecl* nd : dc->lookup(&ctx.Idents.get(parts[i])))
        if (const auto* ns = dyn_cast<NamespaceDecl>(nd)) next = ns;
      dc = next;
    }
    if (dc) scopes.push_back(dc);
  }
  if (parts.empty()) return std::nullopt;
  for (const DeclContext* dc : scopes)
    for (const NamedDecl* nd : dc->lookup(&ctx.Idents.get(parts.back()))) {
      if (const auto* ec = dyn_cast<EnumConstantDecl>(nd)) return ec->getInitVal().getExtValue();
      const auto* vd = dyn_cast<VarDecl>(nd);
      if (!vd) continue;
      if (!vd->getType()->isIntegralOrEnumerationType() || !vd->isUsableInConstantExpressions(ctx)) {
        why = "'" + name + "' is not constexpr";
        return std::nullopt;
      }
      if (const APValue* v = vd->evaluateValue(); v && v->isInt()) return v->getInt().getExtValue();
    }
  return std::nullopt;
}

// Splits "a = 1, b = (x, y)" at the commas outside parentheses.
llvm::SmallVector<llvm::StringRef> splitOptions(llvm::StringRef s) {
  llvm::SmallVector<llvm::StringRef> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] == '(') ++depth;
    if (i < s.size() && s[i] == ')') --depth;
    if (i == s.size() || (s[i] == ',' && depth == 0)) {
      if (!s.slice(start, i).trim().empty()) items.push_back(s.slice(start, i));
      start = i + 1;
    }
  }
  return items;
}

// TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = false), from the template when
// the kernel is an instantiation (read once: the instantiation carries a copy of the attribute);
// the family options' texts go to `family`, read once the parameters are lowered.
bool readOptions(ASTContext& ctx, const FunctionDecl* fd, ir::Kernel& k, FamilyOptions& family, SourceLocation& at) {
  const FunctionDecl* pattern = fd->getTemplateInstantiationPattern() ? fd->getTemplateInstantiationPattern() : fd;
  DiagnosticsEngine& diags = ctx.getDiagnostics();
  const FunctionDecl* d = pattern->hasAttr<AnnotateAttr>() ? pattern : fd;
  for (const auto* a : d->specific_attrs<AnnotateAttr>()) {
    if (a->getAnnotation() != "tilecc.kernel" || a->args_size() == 0) continue;
    const auto* sl = dyn_cast<StringLiteral>((*a->args_begin())->IgnoreParenImpCasts());
    if (!sl) continue;
    auto report = [&](DiagnosticsEngine::Level level, const std::string& msg) {
      diags.Report(a->getLocation(), diags.getCustomDiagID(level, "%0")) << msg;
    };
    at = a->getLocation();
    for (llvm::StringRef item : splitOptions(sl->getString())) {
      auto [key, val] = item.split('=');
      key = key.trim();
      val = val.trim();
      if (key == "tune" || key == "tune_key" || key == "grid") {
        if (val.empty()) return report(DiagnosticsEngine::Error, key.str() + " needs a value: " + key.str() + " = (...)"), false;
        (key == "tune" ? family.tune : key == "tune_key" ? family.key : family.grid) = val.str();
        continue;
      }
      std::string why;
      const std::optional<long long> v = evalOptionExpr(
          val.str(), [&](const std::string& name, std::string& w) { return optionName(name, w, ctx, fd, pattern); }, why);
      const long long n = v.value_or(0);
      if (key != "num_warps" && key != "num_stages" && key != "warp_specialize" && key != "min_programs_per_sm")
        return report(DiagnosticsEngine::Error, "unknown kernel option '" + key.str() +
                                                    "' (options: num_warps, num_stages, warp_specialize, min_programs_per_sm, tune, "
                                                    "tune_key, grid)"),
               false;
      if (!v)
        return report(DiagnosticsEngine::Error, "the value of " + key.str() + " ('" + val.str() + "') is not an integer constant expression: " + why +
                                                    "; option values are built from literals, true/false, the kernel's template parameters and constexpr variables"),
               false;
      if (key == "num_warps") {
        if (n < 1 || n > 32 || (n & (n - 1)) != 0)
          return report(DiagnosticsEngine::Error, "num_warps must be a power of two from 1 to 32, got " + std::to_string(n)), false;
        k.numWarps = static_cast<int>(n);
      } else if (key == "num_stages") {
        if (n < 1 || n > 8) return report(DiagnosticsEngine::Error, "num_stages must be from 1 to 8, got " + std::to_string(n)), false;
        k.numStages = static_cast<int>(n);
      } else if (key == "min_programs_per_sm") {
        if (n < 1 || n > 32) return report(DiagnosticsEngine::Error, "min_programs_per_sm must be from 1 to 32, got " + std::to_string(n)), false;
        k.minPrograms = static_cast<int>(n);
      } else {
        if (n != 0 && n != 1) return report(DiagnosticsEngine::Error, "warp_specialize is true or false, got " + std::to_string(n)), false;
        k.warpSpecialize = static_cast<int>(n);
      }
    }
    // An SM holds 2048 threads: more programs of this size than that cannot be resident.
    if (k.minPrograms * 32 * k.numWarps > 2048)
      return report(DiagnosticsEngine::Error, "min_programs_per_sm = " + std::to_string(k.minPrograms) + " programs of " +
                                                  std::to_string(32 * k.numWarps) + " threads exceed the 2048 threads an SM holds"),
             false;
  }
  return true;
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
  FamilyOptions family;
  SourceLocation optionsAt;
  if (!readOptions(ctx, fd, *k, family, optionsAt)) return nullptr;
  try {
    Lowerer l(ctx, *k);
    l.kernel(fd);
  } catch (const Abort&) {
    return nullptr;
  }
  if (family.any()) {
    DiagnosticsEngine& diags = ctx.getDiagnostics();
    const bool ok = readFamily(
        ctx, fd, family, *k, [&](const TemplateArgument& a) { return argName(a, ctx); },
        [&](const std::string& m) { diags.Report(optionsAt, diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << m; });
    if (!ok) return nullptr;
  }
  return k;
}

}  // namespace tilecc
