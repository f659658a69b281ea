#include "frontend/OptionExpr.h"

#include <cctype>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

namespace tilecc {

namespace {

// Recursive descent by C++'s precedence; every value is a long long (the options are small, and
// a result outside the option's range is the caller's located error).
class Evaluator {
 public:
  Evaluator(const std::string& s, const OptionLookup& lookup, std::string& error) : s_(s), lookup_(lookup), error_(error) {}

  std::optional<long long> run() {
    auto v = conditional();
    skip();
    if (v && pos_ < s_.size()) return fail("unexpected '" + s_.substr(pos_) + "'");
    return v;
  }

 private:
  const std::string& s_;
  const OptionLookup& lookup_;
  std::string& error_;
  std::size_t pos_ = 0;

  std::nullopt_t fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return std::nullopt;
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(const char* op) {
    skip();
    const std::string o(op);
    if (s_.compare(pos_, o.size(), o) != 0) return false;
    // `<` is not the start of `<<` or `<=`, `&` not of `&&`, and so on.
    const char next = pos_ + o.size() < s_.size() ? s_[pos_ + o.size()] : '\0';
    if (o.size() == 1 && (next == o[0] || (next == '=' && o != "=")) && std::string("<>&|=!").find(o[0]) != std::string::npos)
      return false;
    pos_ += o.size();
    return true;
  }

  std::optional<long long> conditional() {
    auto c = binary(0);
    if (!c || !eat("?")) return c;
    auto a = conditional();
    if (!a) return a;
    if (!eat(":")) return fail("expected ':' in a conditional");
    auto b = conditional();
    if (!b) return b;
    return *c ? a : b;
  }

  // Binary operators by precedence level, loosest first.
  std::optional<long long> binary(int level) {
    static const std::vector<std::vector<const char*>> levels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(levels.size())) return unary();
    auto a = binary(level + 1);
    while (a) {
      const char* op = nullptr;
      for (const char* o : levels[static_cast<std::size_t>(level)])
        if (eat(o)) {
          op = o;
          break;
        }
      if (!op) return a;
      auto b = binary(level + 1);
      if (!b) return b;
      a = apply(op, *a, *b);
    }
    return a;
  }

  std::optional<long long> apply(const std::string& op, long long a, long long b) {
    if (op == "||") return (a || b) ? 1 : 0;
    if (op == "&&") return (a && b) ? 1 : 0;
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "&") return a & b;
    if (op == "==") return a == b ? 1 : 0;
    if (op == "!=") return a != b ? 1 : 0;
    if (op == "<=") return a <= b ? 1 : 0;
    if (op == ">=") return a >= b ? 1 : 0;
    if (op == "<") return a < b ? 1 : 0;
    if (op == ">") return a > b ? 1 : 0;
    if (op == "<<" || op == ">>") {
      if (b < 0 || b > 62) return fail("shift by " + std::to_string(b));
      return op == "<<" ? a << b : a >> b;
    }
    if (op == "+") return a + b;
    if (op == "-") return a - b;
    if (op == "*") return a * b;
    if (b == 0) return fail("division by zero");
    if (a == LLONG_MIN && b == -1) return fail("overflow");
    return op == "/" ? a / b : a % b;
  }

  std::optional<long long> unary() {
    if (eat("!")) {
      auto v = unary();
      return v ? std::optional<long long>(*v ? 0 : 1) : v;
    }
    if (eat("~")) {
      auto v = unary();
      return v ? std::optional<long long>(~*v) : v;
    }
    if (eat("-")) {
      auto v = unary();
      return v ? std::optional<long long>(-*v) : v;
    }
    if (eat("+")) return unary();
    return primary();
  }

  std::optional<long long> primary() {
    skip();
    if (eat("(")) {
      auto v = conditional();
      if (v && !eat(")")) return fail("expected ')'");
      return v;
    }
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      std::size_t used = 0;
      long long v = 0;
      try {
        v = std::stoll(s_.substr(pos_), &used, 0);
      } catch (...) {
        return fail("the number at '" + s_.substr(pos_) + "' does not fit");
      }
      pos_ += used;
      while (pos_ < s_.size() && std::strchr("uUlL", s_[pos_])) ++pos_;  // 8u, 16l
      return v;
    }
    std::string name;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == ':'))
      name += s_[pos_++];
    if (name.empty()) return fail(pos_ < s_.size() ? "unexpected '" + s_.substr(pos_) + "'" : "a value is missing");
    if (name == "true") return 1;
    if (name == "false") return 0;
    std::string why;
    auto v = lookup_(name, why);
    if (!v) return fail(why.empty() ? "'" + name + "' is not a template parameter of the kernel or a constexpr variable" : why);
    return v;
  }
};

}  // namespace

std::optional<long long> evalOptionExpr(const std::string& text, const OptionLookup& lookup, std::string& error) {
  error.clear();
  return Evaluator(text, lookup, error).run();
}

}  // namespace tilecc
