// Entry point of the lowering: the kernel's generated name, its options, then the Lowerer.
#include "frontend/Lowering.h"

#include "frontend/Lowerer.h"

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
