// Kernel option values as integer constant expressions: `num_warps = BM / 16`,
// `warp_specialize = (D == 64)`, `num_stages = kStages`. TILECC_KERNEL's options reach the
// translator as the text of the macro's arguments; this evaluates such a text as C++ would, on
// integers: literals (decimal, hex), true/false, names (which the caller resolves: the kernel's
// template parameters, constexpr variables), parentheses, unary + - ! ~, * / % + - << >>,
// comparisons, & ^ |, && ||, and ?:.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace tilecc {

/// A name's value, or nullopt with `why` set (why it has none: not a constant, unknown).
using OptionLookup = std::function<std::optional<long long>(const std::string& name, std::string& why)>;

/// The value of `text`, or nullopt with `error` saying what is wrong (an unknown name, a
/// division by zero, a token the grammar does not take).
std::optional<long long> evalOptionExpr(const std::string& text, const OptionLookup& lookup, std::string& error);

}  // namespace tilecc
