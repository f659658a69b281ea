// Unit tests on IR parsed from text: one kernel, and its values by name.
#pragma once

#include <doctest/doctest.h>

#include "ir/Parser.h"

#include <memory>
#include <string>

namespace tilecc::ir::testing {

inline std::unique_ptr<Kernel> parseOne(const std::string& text) {
  std::string error;
  auto ks = parse(text, "test.ir", error);
  REQUIRE_MESSAGE(error.empty(), error);
  REQUIRE(ks.size() == 1);
  return std::move(ks[0]);
}

inline const Value* named(const Kernel& k, const std::string& name) {
  for (const auto& v : k.values)
    if (v->name == name) return v.get();
  return nullptr;
}

}  // namespace tilecc::ir::testing
