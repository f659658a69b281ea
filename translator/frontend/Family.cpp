// Kernel families from the options tune, tune_key and grid: which template parameters are the
// configuration, which integer parameters are the shape key, and the grid as an expression the
// launcher evaluates (template parameters take this instantiation's values).
#include "frontend/Family.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include <cctype>
#include <optional>

namespace tilecc {

using namespace clang;

namespace {

// "(a, b)" or "a": the names, trimmed.
std::vector<std::string> nameList(llvm::StringRef s) {
  s = s.trim();
  if (s.starts_with("(") && s.ends_with(")")) s = s.drop_front().drop_back();
  llvm::SmallVector<llvm::StringRef> parts;
  s.split(parts, ',', -1, false);
  std::vector<std::string> out;
  for (llvm::StringRef p : parts)
    if (!p.trim().empty()) out.push_back(p.trim().str());
  return out;
}

// grid := "(" expr ("," expr)* ")" | expr;  expr: + − * / % on integers, parentheses, names,
// cdiv(a, b), min(a, b), max(a, b).
class GridParser {
 public:
  using Lookup = std::function<std::optional<ir::GridExpr>(const std::string&)>;
  GridParser(std::string text, Lookup lookup) : s_(std::move(text)), lookup_(std::move(lookup)) {}

  bool parse(std::vector<ir::GridExpr>& out) {
    pos_ = 0;
    error_.clear();
    out.clear();
    // A list is "(" ... ")" around the whole text with a comma at its top level; "(M + 1) / 2"
    // and "(M)" are one expression.
    if (isList()) {
      accept('(');
      do {
        out.emplace_back();
        if (!expr(out.back())) return false;
      } while (accept(','));
      if (!accept(')')) return fail("expected ')'");
      return out.size() <= 3 || fail("a grid has at most three dimensions");
    }
    out.emplace_back();
    return expr(out[0]) && (atEnd() || fail("unexpected '" + s_.substr(pos_) + "'"));
  }
  const std::string& error() const { return error_; }

 private:
  std::string s_;
  Lookup lookup_;
  std::size_t pos_ = 0;
  std::string error_;

  bool isList() const {
    const std::size_t first = s_.find_first_not_of(" \t\n"), last = s_.find_last_not_of(" \t\n");
    if (first == std::string::npos || s_[first] != '(' || s_[last] != ')') return false;
    int depth = 0;
    bool comma = false;
    for (std::size_t i = first; i <= last; ++i) {
      if (s_[i] == '(') ++depth;
      else if (s_[i] == ')' && --depth == 0 && i != last) return false;  // closes before the end
      else if (s_[i] == ',' && depth == 1) comma = true;
    }
    return comma;
  }
  bool fail(const std::string& m) {
    if (error_.empty()) error_ = m;
    return false;
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool atEnd() {
    skip();
    return pos_ == s_.size();
  }
  bool accept(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
    return false;
  }
  bool expr(ir::GridExpr& out) {
    if (!term(out)) return false;
    for (;;) {
      const bool add = accept('+');
      if (!add && !accept('-')) return true;
      ir::GridExpr r;
      if (!term(r)) return false;
      out = ir::GridExpr::binary(add ? ir::GridExpr::Kind::Add : ir::GridExpr::Kind::Sub, std::move(out), std::move(r));
    }
  }
  bool term(ir::GridExpr& out) {
    if (!factor(out)) return false;
    for (;;) {
      ir::GridExpr::Kind k;
      if (accept('*')) k = ir::GridExpr::Kind::Mul;
      else if (accept('/')) k = ir::GridExpr::Kind::Div;
      else if (accept('%')) k = ir::GridExpr::Kind::Rem;
      else return true;
      ir::GridExpr r;
      if (!factor(r)) return false;
      out = ir::GridExpr::binary(k, std::move(out), std::move(r));
    }
  }
  bool factor(ir::GridExpr& out) {
    skip();
    if (accept('(')) return expr(out) && (accept(')') || fail("expected ')'"));
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      std::size_t end = pos_;
      while (end < s_.size() && std::isdigit(static_cast<unsigned char>(s_[end]))) ++end;
      long long v = 0;
      if (llvm::StringRef(s_).substr(pos_, end - pos_).getAsInteger(10, v)) return fail("number out of range");
      pos_ = end;
      out = {};
      out.value = v;
      return true;
    }
    std::size_t end = pos_;
    while (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_')) ++end;
    if (end == pos_) return fail(pos_ < s_.size() ? "unexpected '" + s_.substr(pos_) + "'" : "expected an expression");
    const std::string name = s_.substr(pos_, end - pos_);
    pos_ = end;
    if (name == "cdiv" || name == "min" || name == "max") {
      ir::GridExpr a, b;
      if (!accept('(')) return fail(name + " takes two arguments: " + name + "(a, b)");
      if (!expr(a) || !(accept(',') || fail(name + " takes two arguments")) || !expr(b) || !(accept(')') || fail("expected ')'")))
        return false;
      out = ir::GridExpr::binary(name == "cdiv" ? ir::GridExpr::Kind::Cdiv : name == "min" ? ir::GridExpr::Kind::Min : ir::GridExpr::Kind::Max,
                 std::move(a), std::move(b));
      return true;
    }
    std::optional<ir::GridExpr> v = lookup_(name);
    if (!v) return fail("'" + name + "' is neither an integer parameter of the kernel nor a template parameter with a value");
    out = std::move(*v);
    return true;
  }
};

}  // namespace

bool readFamily(ASTContext& ctx, const FunctionDecl* fd, const FamilyOptions& o, ir::Kernel& k,
                const std::function<std::string(const TemplateArgument&)>& argName, const std::function<void(const std::string&)>& error) {
  (void)ctx;
  const FunctionTemplateDecl* ft = fd->getPrimaryTemplate();
  const TemplateArgumentList* ta = fd->getTemplateSpecializationArgs();
  if (!ft || !ta) return error("tune: a kernel family is the instantiations of a kernel template; '" + fd->getNameAsString() + "' is not a template"), false;
  if (o.tune.empty()) return error("tune_key and grid belong to a kernel family: name its configuration parameters with tune = (...)"), false;
  if (o.grid.empty()) return error("a kernel family states its grid: grid = (x [, y [, z]]) in terms of its parameters"), false;
  const TemplateParameterList* tpl = ft->getTemplateParameters();

  // Configuration parameters: template parameters of the kernel.
  const std::vector<std::string> tune = nameList(o.tune);
  if (tune.empty()) return error("tune names the template parameters that are the configuration: tune = (BM, BN, ...)"), false;
  std::vector<bool> isTune(tpl->size(), false);
  for (const std::string& n : tune) {
    bool found = false;
    for (unsigned i = 0; i < tpl->size(); ++i)
      if (tpl->getParam(i)->getName() == n) found = isTune[i] = true;
    if (!found) return error("tune: '" + n + "' is not a template parameter of " + fd->getNameAsString()), false;
  }
  ir::TuneInfo t;
  t.family = fd->getNameAsString();
  t.familySource = fd->getNameAsString() + "<";
  for (unsigned i = 0; i < tpl->size() && i < ta->size(); ++i) {
    const std::string name = tpl->getParam(i)->getName().str();
    t.familySource += (i ? ", " : "") + (isTune[i] ? name : argName(ta->get(i)));
    if (isTune[i]) t.config += (t.config.empty() ? "" : ",") + name + "=" + argName(ta->get(i));
    else t.family += "_" + argName(ta->get(i));
  }
  t.familySource += ">";

  // The kernel's integer parameters by name (k.params follow the declaration's order).
  auto paramIndex = [&](const std::string& n) -> int {
    for (unsigned i = 0; i < fd->getNumParams() && i < k.params.size(); ++i)
      if (fd->getParamDecl(i)->getName() == n && k.params[i]->type.isScalar() && k.params[i]->type.elem.isInt()) return static_cast<int>(i);
    return -1;
  };
  for (const std::string& n : nameList(o.key)) {
    const int i = paramIndex(n);
    if (i < 0) return error("tune_key: '" + n + "' is not an integer parameter of " + fd->getNameAsString()), false;
    t.key.push_back(i);
  }

  GridParser gp(o.grid, [&](const std::string& n) -> std::optional<ir::GridExpr> {
    ir::GridExpr e;
    if (const int i = paramIndex(n); i >= 0) {
      e.kind = ir::GridExpr::Kind::Param;
      e.param = i;
      return e;
    }
    for (unsigned i = 0; i < tpl->size() && i < ta->size(); ++i)
      if (tpl->getParam(i)->getName() == n && ta->get(i).getKind() == TemplateArgument::Integral) {
        e.value = ta->get(i).getAsIntegral().getExtValue();
        return e;
      }
    return std::nullopt;
  });
  if (!gp.parse(t.grid)) return error("grid: " + gp.error()), false;
  k.tune = std::move(t);
  return true;
}

}  // namespace tilecc
