// Kernel option values as integer constant expressions (frontend/OptionExpr): C++'s precedence
// and associativity, names through the lookup, and located reasons for what is not a value.
#include "frontend/OptionExpr.h"

#include <doctest/doctest.h>

#include <map>
#include <utility>

namespace {

std::optional<long long> eval(const std::string& text, std::string* error = nullptr) {
  static const std::map<std::string, long long> names = {{"BM", 128}, {"D", 64}, {"WS", 1}, {"cfg::kWarps", 8}};
  std::string e;
  auto v = tilecc::evalOptionExpr(
      text,
      [](const std::string& n, std::string&) -> std::optional<long long> {
        auto it = names.find(n);
        return it == names.end() ? std::nullopt : std::optional<long long>(it->second);
      },
      e);
  if (error) *error = e;
  return v;
}

}  // namespace

TEST_CASE("option expressions: literals, names and C++'s precedence") {
  CHECK(eval("8") == 8);
  CHECK(eval("0x10") == 16);
  CHECK(eval("16u") == 16);
  CHECK(eval("true") == 1);
  CHECK(eval("false") == 0);
  CHECK(eval("BM / 16") == 8);
  CHECK(eval("1 + 2 * 3") == 7);
  CHECK(eval("(1 + 2) * 3") == 9);
  CHECK(eval("10 - 4 - 3") == 3);  // left to right
  CHECK(eval("100 / 10 / 5") == 2);
  CHECK(eval("-7 / 2") == -3);  // C++ truncates
  CHECK(eval("-7 % 2") == -1);
  CHECK(eval("1 << 3 >> 1") == 4);
  CHECK(eval("1 + 1 << 2") == 8);  // + binds tighter than <<
  CHECK(eval("D == 64") == 1);
  CHECK(eval("D != 64") == 0);
  CHECK(eval("BM >= 128 && D < 128") == 1);
  CHECK(eval("!WS || D <= 32") == 0);
  CHECK(eval("6 & 3 | 8 ^ 1") == 11);
  CHECK(eval("~0") == -1);
  CHECK(eval("BM >= 128 ? cfg::kWarps : BM / 16") == 8);
  CHECK(eval("D > 64 ? 1 : D > 32 ? 2 : 3") == 2);  // ?: nests to the right
  CHECK(eval("(D == 64) + 2") == 3);
}

TEST_CASE("option expressions: what is not a value says why") {
  const std::pair<const char*, const char*> cases[] = {
      {"BM / (D - 64)", "division by zero"},
      {"kUnknown", "'kUnknown' is not a template parameter of the kernel or a constexpr variable"},
      {"4 +", "a value is missing"},
      {"(4", "expected ')'"},
      {"4 4", "unexpected '4'"},
      {"D ? 1", "expected ':' in a conditional"},
      {"1 << 70", "shift by 70"},
  };
  for (const auto& [text, why] : cases) {
    CAPTURE(text);
    std::string e;
    CHECK_FALSE(eval(text, &e));
    CHECK(e == why);
  }
}
