// Kernel families: the options tune = (P, ...), tune_key = (n, ...) and grid = (x [, y [, z]])
// make the instantiations of one template that differ only in the `tune` template parameters
// one family with one launcher (see docs/language.md, "Kernel families").
#pragma once

#include "ir/IR.h"

#include <functional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class TemplateArgument;
}  // namespace clang

namespace tilecc {

struct FamilyOptions {
  std::string tune, key, grid;  // the options' texts as written; empty where absent
  bool any() const { return !tune.empty() || !key.empty() || !grid.empty(); }
};

/// Fills k.tune for instantiation `fd` (k.params already lowered). `argName` spells a template
/// argument as generated names do. Reports through `error` and returns false on a bad option.
bool readFamily(clang::ASTContext& ctx, const clang::FunctionDecl* fd, const FamilyOptions& o, ir::Kernel& k,
                const std::function<std::string(const clang::TemplateArgument&)>& argName,
                const std::function<void(const std::string&)>& error);

}  // namespace tilecc
