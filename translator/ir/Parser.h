// Reads the textual IR that Printer.h writes (either level), for tilecc-opt and pass tests.
#pragma once

#include "ir/IR.h"

#include <memory>
#include <string>
#include <vector>

namespace tilecc::ir {

/// Parses every kernel in `text`. On a syntax error, sets `error` to
/// "<file>:<line>:<col>: error: ..." and returns an empty list.
std::vector<std::unique_ptr<Kernel>> parse(const std::string& text, const std::string& file, std::string& error);

}  // namespace tilecc::ir
