// Lowers one kernel's instantiated Clang AST to Tile IR: locals become SSA values, for/if
// become regions with carried values, helper calls are inlined. Constructs outside the
// language get a diagnostic at their location.
#pragma once

#include "ir/IR.h"

#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace tilecc {

/// Null when an error was reported.
std::unique_ptr<ir::Kernel> lowerKernel(clang::ASTContext& ctx, const clang::FunctionDecl* fd);

}  // namespace tilecc
