// Deterministic, readable names for values: the source name where there is one (made unique
// with a suffix), else a number in order of definition. Used by the IR and CUDA printers.
#pragma once

#include "ir/IR.h"

#include <map>
#include <set>
#include <cctype>
#include <string>

namespace tilecc::ir {

class Names {
 public:
  /// `reserved` names are never given out (parameters of generated code, keywords).
  explicit Names(std::set<std::string> reserved = {}) : used_(std::move(reserved)) {}

  const std::string& of(const Value* v) {
    auto it = names_.find(v->id);
    if (it != names_.end()) return it->second;
    std::string base = sanitize(v->name);
    std::string n;
    if (base.empty()) {
      do n = std::string(v->type.isTile() ? "t" : "s") + std::to_string(counter_++);
      while (used_.count(n));
    } else {
      n = base;
      for (int k = 1; used_.count(n) || generatedLike(n); ++k) n = base + "_" + std::to_string(k);
    }
    used_.insert(n);
    return names_.emplace(v->id, n).first->second;
  }

  /// A new name for a variable of the printer's own (`base`, made unique like source names).
  std::string fresh(const std::string& base) {
    std::string n = base;
    for (int k = 1; used_.count(n) || generatedLike(n); ++k) n = base + "_" + std::to_string(k);
    used_.insert(n);
    return n;
  }

  /// Gives `v` exactly the name of `other` (loop results share their carried variable).
  void alias(const Value* v, const Value* other) { names_[v->id] = of(other); }

  /// Names of the form L<digits>_... belong to the printers' layout variables.
  static bool generatedLike(const std::string& n) {
    if (n.size() < 3 || n[0] != 'L' || !std::isdigit(static_cast<unsigned char>(n[1]))) return false;
    std::size_t i = 1;
    while (i < n.size() && std::isdigit(static_cast<unsigned char>(n[i]))) ++i;
    return i < n.size() && n[i] == '_';
  }

  static std::string sanitize(const std::string& s) {
    std::string r;
    for (char c : s) r += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (!r.empty() && std::isdigit(static_cast<unsigned char>(r[0]))) r = "v" + r;
    return r;
  }

 private:
  std::map<int, std::string> names_;
  std::set<std::string> used_;
  int counter_ = 0;
};

}  // namespace tilecc::ir
