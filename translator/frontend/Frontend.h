// Parses kernel files with Clang (plain C++20 against the runtime headers) and lowers every
// TILECC_KERNEL function and explicit instantiation to Tile IR. Errors are reported through
// Clang's diagnostics (file:line:col: error: ...).
#pragma once

#include "ir/IR.h"

#include <memory>
#include <string>
#include <vector>

namespace tilecc {

struct FrontendOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> extraArgs;  // after `--`
  std::string compileDbDir;            // -p
  std::string resourceDir;
  std::string runtimeInclude;
  bool collectDependencies = false;    // fill TranslationUnit::dependencies
};

struct TranslationUnit {
  std::string input;
  std::vector<std::unique_ptr<ir::Kernel>> kernels;
  /// Every non-system file the parse read (the input and the headers it includes), if asked.
  std::vector<std::string> dependencies;
};

/// Returns false when any error was reported.
bool runFrontend(const FrontendOptions& opts, std::vector<TranslationUnit>& out);

}  // namespace tilecc
