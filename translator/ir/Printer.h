// The textual form of Tile IR (`tilecc --emit=ir`): what translator tests check.
#pragma once

#include "ir/IR.h"

#include <string>
#include <vector>

namespace tilecc::ir {

struct Layout;

/// Prints one kernel. With `layouts`, values are annotated with their layout (#L<n>).
std::string print(const Kernel& k, const std::vector<Layout>* layouts = nullptr);

}  // namespace tilecc::ir
