// Deterministic, readable names for values, stable under local edits of the kernel:
// a value from a source variable takes its name (`acc`; later versions `acc_1`, ...), a
// temporary the name of the statement it comes from and what it computes (`a_ptrs_mul`,
// `a_ptrs_ptr` for the temporaries of `auto a_ptrs = ...`; a second `mul` there is
// `a_ptrs_mul_1`). An edit renames only the temporaries of the statement it touches. Names
// never repeat and never equal a reserved name (identifiers of the generated code itself,
// keywords), whatever the user wrote.
#pragma once

#include "ir/IR.h"

#include <cctype>
#include <map>
#include <set>
#include <string>

namespace tilecc::ir {

class Names {
 public:
  explicit Names(std::set<std::string> reserved = {}) : used_(std::move(reserved)) {}

  const std::string& of(const Value* v) {
    auto it = names_.find(v->id);
    if (it != names_.end()) return it->second;
    std::string n;
    if (!v->name.empty()) {
      n = unique(sanitize(v->name));
    } else if (!v->hint.empty()) {
      // A temporary: the statement it comes from and what it computes (a_ptrs_mul).
      n = unique(sanitize(v->hint) + "_" + computes(v));
    } else {
      n = unique("t_" + computes(v));
    }
    return names_.emplace(v->id, n).first->second;
  }

  /// A new name for a variable of the printer's own (`base`, made unique like source names).
  std::string fresh(const std::string& base) { return unique(base); }

  /// Gives `v` exactly the name of `other` (loop results share their carried variable).
  void alias(const Value* v, const Value* other) { names_[v->id] = of(other); }

  /// Keeps `n` from ever being given out.
  void reserve(const std::string& n) { used_.insert(n); }

  static std::string sanitize(const std::string& s) {
    std::string r;
    for (char c : s) r += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (r.empty() || std::isdigit(static_cast<unsigned char>(r[0]))) r = "v" + r;
    return r;
  }

 private:
  std::string unique(const std::string& base) {
    std::string n = base;
    // Suffixes continue where the last one for this base stopped: thousands of temporaries
    // of one statement (a long chain of +) stay linear. The same names as counting from 1.
    int& k = next_[base];
    while (used_.count(n)) n = base + "_" + std::to_string(++k);
    used_.insert(n);
    return n;
  }

  std::map<int, std::string> names_;
  std::set<std::string> used_;
  std::map<std::string, int> next_;  // per base: the last suffix tried
};

}  // namespace tilecc::ir
