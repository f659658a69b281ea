#include "ir/Parser.h"

#include "ir/Clone.h"
#include "ir/GridExpr.h"
#include "ir/OpTraits.h"

#include <cctype>
#include <cstring>
#include <map>

namespace tilecc::ir {

namespace {

struct ParseError {
  std::string what;
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& file) : s_(text), file_(file) {}

  std::vector<std::unique_ptr<Kernel>> run() {
    std::vector<std::unique_ptr<Kernel>> out;
    for (skip(); pos_ < s_.size(); skip()) out.push_back(kernel());
    return out;
  }

  std::string where() const {
    unsigned line = 1, col = 1;
    for (std::size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return file_ + ":" + std::to_string(line) + ":" + std::to_string(col);
  }

 private:
  const std::string& s_;
  std::string file_;
  std::size_t pos_ = 0;
  Kernel* k_ = nullptr;
  std::map<std::string, Value*> values_;
  std::size_t linePos_ = 0;  // lineHere's position and line
  unsigned line_ = 1;

  [[noreturn]] void fail(const std::string& what) { throw ParseError{what}; }

  // ---- lexing ----
  void skip() {
    for (;;) {
      while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ + 1 < s_.size() && s_[pos_] == '/' && s_[pos_ + 1] == '/') {  // comments, as FileCheck lines
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      return;
    }
  }
  bool at(const char* tok) {
    skip();
    return s_.compare(pos_, std::strlen(tok), tok) == 0;
  }
  // `tok` next on this line: an op's operands, attributes and types never continue on the next.
  bool onThisLine(const char* tok) {
    std::size_t p = pos_;
    while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t')) ++p;
    return s_.compare(p, std::strlen(tok), tok) == 0;
  }
  bool accept(const char* tok) {
    if (!at(tok)) return false;
    pos_ += std::strlen(tok);
    return true;
  }
  void expect(const char* tok) {
    if (!accept(tok)) fail(std::string("expected '") + tok + "'");
  }
  static bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
  std::string ident() {
    skip();
    const std::size_t b = pos_;
    while (pos_ < s_.size() && identChar(s_[pos_])) ++pos_;
    if (b == pos_) fail("expected a name");
    return s_.substr(b, pos_ - b);
  }
  std::int64_t integer() {
    skip();
    const std::size_t b = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (b == pos_ || (pos_ == b + 1 && s_[b] == '-')) fail("expected an integer");
    return std::stoll(s_.substr(b, pos_ - b));
  }
  double floating() {
    if (accept("bits(")) {
      expect("0x");
      const std::size_t b = pos_;
      while (pos_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      const std::uint64_t bits = std::stoull(s_.substr(b, pos_ - b), nullptr, 16);
      expect(")");
      double f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    skip();
    std::size_t used = 0;
    const double f = std::stod(s_.substr(pos_, 64), &used);
    if (used == 0) fail("expected a number");
    pos_ += used;
    return f;
  }
  std::string string() {
    expect("\"");
    std::string r;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      r += s_[pos_++];
    }
    expect("\"");
    return r;
  }
  std::vector<int> intList() {
    std::vector<int> v;
    expect("[");
    if (!accept("]")) {
      do v.push_back(static_cast<int>(integer()));
      while (accept(","));
      expect("]");
    }
    return v;
  }

  // ---- types ----
  Scalar scalar(const std::string& n) {
    static const std::map<std::string, Scalar> m = {{"i1", Scalar::Bool}, {"i8", Scalar::I8},   {"u8", Scalar::U8},
                                                    {"i32", Scalar::I32}, {"u32", Scalar::U32}, {"i64", Scalar::I64},
                                                    {"u64", Scalar::U64}, {"f16", Scalar::F16}, {"bf16", Scalar::BF16},
                                                    {"f32", Scalar::F32}};
    auto it = m.find(n);
    if (it == m.end()) fail("unknown element type '" + n + "'");
    return it->second;
  }
  ElemType elem() {
    const std::string n = ident();
    if (n != "ptr") return ElemType::of(scalar(n));
    expect("<");
    const bool isConst = accept("const ");
    const Scalar p = scalar(ident());
    expect(">");
    return ElemType::pointerTo(p, isConst);
  }
  // 128x64xf16
  void shapeAndElem(std::vector<int>& shape, ElemType& e) {
    skip();
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      shape.push_back(static_cast<int>(integer()));
      if (s_[pos_] != 'x') fail("expected 'x' in a shape");
      ++pos_;
    }
    e = elem();
  }
  Type type() {
    skip();
    if (accept("tile<")) {
      Type t;
      shapeAndElem(t.shape, t.elem);
      expect(">");
      return t;
    }
    if (accept("smem<")) {
      Type t;
      t.kind = TypeKind::Shared;
      shapeAndElem(t.shape, t.elem);
      while (accept(",")) {
        const std::string key = ident();
        expect("=");
        const int v = static_cast<int>(integer());
        if (key == "stages") t.stages = v;
        else if (key == "pitch") t.smem.pitch = v;
        else if (key == "swizzle") t.smem.swizzle = v;
        else fail("unknown shared-memory attribute '" + key + "'");
      }
      expect(">");
      return t;
    }
    if (accept("mbarrier<")) {
      const int n = static_cast<int>(integer());
      expect(">");
      return Type::mbarriers(n);
    }
    if (accept("tdesc<")) {
      Type t;
      t.kind = TypeKind::TensorDesc;
      shapeAndElem(t.shape, t.elem);
      expect(">");
      return t;
    }
    return Type::scalar(elem());
  }
  // TYPE [#Ln]
  Type typeWithLayout(int& layout) {
    Type t = type();
    layout = -1;
    if (accept("#L")) layout = static_cast<int>(integer());
    return t;
  }

  // ---- values ----
  std::string valueName() {
    expect("%");
    const std::size_t b = pos_;
    while (pos_ < s_.size() && (identChar(s_[pos_]) || s_[pos_] == '.')) ++pos_;
    if (b == pos_) fail("expected a value name after '%'");
    return s_.substr(b, pos_ - b);
  }
  Value* use() {
    const std::string n = valueName();
    auto it = values_.find(n);
    if (it == values_.end()) fail("'%" + n + "' is not defined before this use");
    return it->second;
  }
  void define(const std::string& n, Value* v) {
    if (!values_.emplace(n, v).second) fail("'%" + n + "' is defined twice");
    v->name = n;
  }

  // ---- kernels ----
  std::unique_ptr<Kernel> kernel() {
    auto k = std::make_unique<Kernel>();
    k_ = k.get();
    values_.clear();
    expect("kernel");
    expect("@");
    k->name = ident();
    k->sourceName = string();
    for (;;) {
      if (accept("num_warps=")) k->numWarps = static_cast<int>(integer());
      else if (accept("num_stages=")) k->numStages = static_cast<int>(integer());
      else if (accept("warp_specialize=")) k->warpSpecialize = ident() == "true" ? 1 : 0;
      else if (accept("min_programs_per_sm=")) k->minPrograms = static_cast<int>(integer());
      else if (accept("producer_warps=")) k->producerWarps = static_cast<int>(integer());
      else if (accept("persistent")) k->persistent = true;
      else if (accept("specialised")) k->specialised = true;
      else if (accept("level=")) k->level = ident() == "gpu" ? Level::Gpu : Level::Tile;
      else if (accept("target=")) k->target = ident();
      else if (accept("shared=")) k->sharedBytes = static_cast<int>(integer());
      else break;
    }
    expect("(");
    if (!accept(")")) {
      do {
        const std::string n = valueName();
        expect(":");
        Value* v = k->newValue(type());
        define(n, v);
        ParamInfo info{n, 0, 0};
        for (;;) {
          if (accept("aligned(")) info.aligned = integer();
          else if (accept("multiple_of(")) info.multipleOf = integer();
          else break;
          expect(")");
        }
        k->params.push_back(v);
        k->paramInfo.push_back(info);
      } while (accept(","));
      expect(")");
    }
    if (accept("assumed(")) {
      do {
        Value* p = use();
        expect(":");
        int index = -1;
        for (std::size_t i = 0; i < k->params.size(); ++i)
          if (k->params[i] == p) index = static_cast<int>(i);
        if (index < 0) fail("assumed(...) names parameters");
        k->assumed.push_back({index, accept("=1") ? kEqualsOne : accept(">=0") ? kNonNegative : integer()});
      } while (accept(","));
      expect(")");
      k->specialised = true;  // a variant with assumptions is one the launcher picks
    }
    auto paramIndex = [&](const Value* v) {
      for (std::size_t i = 0; i < k->params.size(); ++i)
        if (k->params[i] == v) return static_cast<int>(i);
      fail("tensor_map(...) and grid_check(...) name parameters");
    };
    // printGridExpr's form: integers, parameters, kind(args...).
    std::function<GridExpr()> gridExpr = [&]() {
      GridExpr e;
      if (at("%")) {
        e.kind = GridExpr::Kind::Param;
        e.param = paramIndex(use());
        return e;
      }
      skip();
      if (pos_ < s_.size() && (s_[pos_] == '-' || std::isdigit(static_cast<unsigned char>(s_[pos_])))) {
        e.value = integer();
        return e;
      }
      const std::string n = ident();
      int kind = -1;
      for (int i = 0; i <= static_cast<int>(GridExpr::Kind::Arange); ++i)
        if (n == gridExprName(static_cast<GridExpr::Kind>(i))) kind = i;
      if (kind < 0 || kind == static_cast<int>(GridExpr::Kind::Const) || kind == static_cast<int>(GridExpr::Kind::Param))
        fail("unknown grid expression '" + n + "'");
      e.kind = static_cast<GridExpr::Kind>(kind);
      expect("(");
      if (e.kind == GridExpr::Kind::ProgramId || e.kind == GridExpr::Kind::NumPrograms || e.kind == GridExpr::Kind::Arange) {
        e.value = integer();
      } else {
        do e.args.push_back(gridExpr());
        while (accept(","));
        const std::size_t arity = e.kind == GridExpr::Kind::Neg || e.kind == GridExpr::Kind::I64 ? 1 : 2;
        if (e.args.size() != arity) fail(std::string("'") + n + "' takes " + std::to_string(arity) + " operand(s)");
      }
      expect(")");
      return e;
    };
    while (accept("grid_check(")) {
      GridCheck c;
      expect("line");
      c.line = static_cast<unsigned>(integer());
      c.what = string();
      c.why = string();
      expect(":");
      c.expr = gridExpr();
      expect(")");
      k->gridChecks.push_back(std::move(c));
    }
    // A sum of terms: an integer, parameters, or an integer times parameters (c*%p*%q).
    auto hostExpr = [&]() {
      HostExpr e;
      do {
        HostTerm t{1, {}};
        bool any = false;
        if (!at("%")) {
          t.coef = integer();
          any = accept("*");
          if (!any) {
            e.push_back(t);
            continue;
          }
        }
        do t.params.push_back(paramIndex(use()));
        while (accept("*"));
        e.push_back(t);
      } while (accept("+"));
      return e;
    };
    auto hostExprs = [&]() {
      std::vector<HostExpr> v;
      expect("[");
      if (!accept("]")) {
        do v.push_back(hostExpr());
        while (accept(","));
        expect("]");
      }
      return v;
    };
    while (accept("tensor_map(")) {
      TensorMapInfo m;
      m.param = paramIndex(use());
      expect(":");
      expect("base=");
      m.baseParam = paramIndex(use());
      expect("dims=");
      m.dims = hostExprs();
      expect("strides=");
      m.strides = hostExprs();
      expect("box=");
      m.box = intList();
      expect("swizzle=");
      m.swizzle = static_cast<int>(integer());
      if (accept("im2col=")) m.im2colShift = static_cast<int>(integer());
      expect(")");
      k->tensorMaps.push_back(m);
    }
    expect("{");
    while (at("#L")) {
      expect("#L");
      if (static_cast<std::size_t>(integer()) != k->layouts.size()) fail("layouts are numbered #L0, #L1, ... in order");
      expect("=");
      expect("blocked{");
      Layout l;
      expect("spt=");
      l.spt = intList();
      expect("tpw=");
      l.tpw = intList();
      if (accept("rpw=")) l.rpw = intList();
      expect("wpc=");
      l.wpc = intList();
      expect("order=");
      l.order = intList();
      expect("}");
      if (accept("axes=")) l.dims = intList();
      else
        for (int d = 0; d < l.parentRank(); ++d) l.dims.push_back(d);
      k->layouts.push_back(l);
    }
    Builder b{*k, k->body.get(), {}, {}, -1};
    block(b);
    expect("}");
    return k;
  }

  // Ops until the closing '}' (not consumed).
  void block(Builder& b) {
    while (!at("}")) {
      if (pos_ >= s_.size()) fail("unexpected end of input (missing '}')");
      op(b);
    }
  }

  void layoutOf(Value* v, int layout) {
    if (layout >= static_cast<int>(k_->layouts.size())) fail("#L" + std::to_string(layout) + " is not in the layout table");
    v->layout = layout;
  }

  // -> (%r: TYPE [#L], ...)
  std::vector<std::pair<std::string, std::pair<Type, int>>> resultList() {
    std::vector<std::pair<std::string, std::pair<Type, int>>> rs;
    if (!accept("->")) return rs;
    expect("(");
    do {
      const std::string n = valueName();
      expect(":");
      int l;
      Type t = typeWithLayout(l);
      rs.push_back({n, {t, l}});
    } while (accept(","));
    expect(")");
    return rs;
  }

  void op(Builder& b) {
    b.loc = Loc{file_, lineHere(), 0};
    if (accept("for ")) return forOp(b);
    if (accept("if ")) return ifOp(b);
    std::vector<std::string> results;
    if (at("%")) {
      do results.push_back(valueName());
      while (accept(","));
      expect("=");
    }
    const std::string n = ident();
    OpKind kind;
    if (!opKindByName(n, kind)) fail("unknown op '" + n + "'");
    auto sub = [&]() {
      expect(".");
      return ident();
    };
    Op tmp;
    tmp.kind = kind;
    switch (kind) {
      case OpKind::Binary: tmp.binop = enumByName<BinOp>(sub(), kNumBinOps, [](BinOp x) { return name(x); }); break;
      case OpKind::Unary: tmp.unop = enumByName<UnOp>(sub(), kNumUnOps, [](UnOp x) { return name(x); }); break;
      case OpKind::Reduce:
      case OpKind::Scan: tmp.reduce = enumByName<ReduceKind>(sub(), 7, [](ReduceKind x) { return name(x); }); break;
      case OpKind::Hint: tmp.hint = enumByName<HintKind>(sub(), 3, [](HintKind x) { return name(x); }); break;
      default: break;
    }
    bool constIsFloat = false;
    if (kind == OpKind::Constant) {
      skip();
      const std::size_t save = pos_;
      // The result type decides how the value reads: parse it as text first.
      while (pos_ < s_.size() && s_[pos_] != ':') ++pos_;
      ++pos_;
      constIsFloat = type().elem.isFloat();
      pos_ = save;
      if (constIsFloat) tmp.floatValue = floating();
      else tmp.intValue = integer();
    }
    std::vector<Value*> operands;
    if (onThisLine("%")) {
      do operands.push_back(use());
      while (accept(","));
    }
    if (onThisLine("[") && accept("[")) attributes(tmp);
    std::vector<std::pair<Type, int>> types;
    if (onThisLine(":") && accept(":")) {
      do {
        int l;
        Type t = typeWithLayout(l);
        types.push_back({t, l});
      } while (accept(","));
    }
    if (types.size() != results.size()) fail("'" + n + "' names " + std::to_string(results.size()) + " results but gives " + std::to_string(types.size()) + " types");
    std::vector<Type> ts;
    for (auto& t : types) ts.push_back(t.first);
    Op* o = b.create(kind, operands, ts);
    const Loc loc = o->loc;
    copyAttributes(tmp, *o);
    o->loc = loc;
    for (std::size_t i = 0; i < results.size(); ++i) {
      define(results[i], o->results[i]);
      if (types[i].second >= 0) layoutOf(o->results[i], types[i].second);
    }
    std::vector<std::string> argNames;  // a combine function's operands: (%a, %b)
    if (onThisLine("(") && accept("(")) {
      do argNames.push_back(valueName());
      while (accept(","));
      expect(")");
    }
    if (onThisLine("{") && accept("{")) {  // a region (warp_group, a combine function)
      Block* region = b.addRegion(o);
      for (const std::string& an : argNames) {
        if (operands.empty()) fail("a region with operands needs an operand to take their type from");
        define(an, b.addArg(region, Type::scalar(operands[0]->type.elem)));
      }
      Builder inner{*k_, region, b.loc, {}, -1};
      block(inner);
      expect("}");
      if (o->kind == OpKind::WarpGroup && onThisLine("else") && accept("else")) {  // the other warps
        expect("{");
        Builder other{*k_, b.addRegion(o), b.loc, {}, -1};
        block(other);
        expect("}");
      }
    } else if (!argNames.empty()) {
      fail("expected '{' after the region's operands");
    }
  }

  // Counted on from the last call (ops come in order): from the start each time, a 1.7 MB
  // kernel file took 22 s to parse.
  unsigned lineHere() {
    if (pos_ < linePos_) linePos_ = 0, line_ = 1;
    for (; linePos_ < pos_ && linePos_ < s_.size(); ++linePos_) line_ += s_[linePos_] == '\n';
    return line_;
  }

  template <class E, class F>
  E enumByName(const std::string& n, int count, F nameOf) {
    for (int i = 0; i < count; ++i)
      if (n == nameOf(static_cast<E>(i))) return static_cast<E>(i);
    fail("unknown '" + n + "'");
  }

  // key=value, ... ]
  void attributes(Op& o) {
    if (accept("]")) return;
    do {
      const std::string key = ident();
      if (key == "tf32") o.tf32 = true;
      else if (key == "transposed") o.transposed = true;
      else if (key == "transposed_a") o.transposedA = true;
      else if (key == "increase") o.increase = true;
      else {
        expect("=");
        if (key == "axis") o.axis = static_cast<int>(integer());
        else if (key == "value") o.intValue = integer();
        else if (key == "vec") o.access.vec = static_cast<int>(integer());
        else if (key == "vec_axis") o.access.axis = static_cast<int>(integer());
        else if (key == "limits") {
          expect("[");
          if (!accept("]")) {
            do o.access.limits.push_back(string());
            while (accept(","));
            expect("]");
          }
        } else if (key == "offset") o.offset = static_cast<int>(integer());
        else if (key == "count") o.count = static_cast<int>(integer());
        else if (key == "sync") o.sync = enumByName<Sync>(ident(), 5, [](Sync x) { return name(x); });
        else if (key == "id") o.barrierId = static_cast<int>(integer());
        else if (key == "threads") o.barrierThreads = static_cast<int>(integer());
        else if (key == "groups") o.count = static_cast<int>(integer());
        else if (key == "instr") o.instr = enumByName<MmaInstr>(ident(), 5, [](MmaInstr x) { return name(x); });
        else if (key == "first_warp") o.firstWarp = static_cast<int>(integer());
        else if (key == "num_warps") o.numWarps = static_cast<int>(integer());
        else if (key == "regs") o.regs = static_cast<int>(integer());
        else if (key == "note") o.note = string();
        else fail("unknown attribute '" + key + "'");
      }
    } while (accept(","));
    expect("]");
  }

  void forOp(Builder& b) {
    const std::string ivName = valueName();
    expect("=");
    Value* lb = use();
    const std::string c = ident();
    CmpPred cmp = enumByName<CmpPred>(c, 5, [](CmpPred x) { return name(x); });
    Value* ub = use();
    expect("step");
    Value* step = use();
    std::vector<std::string> argNames;
    std::vector<Value*> operands = {lb, ub, step};
    if (accept("iter(")) {
      do {
        argNames.push_back(valueName());
        expect("=");
        operands.push_back(use());
      } while (accept(","));
      expect(")");
    }
    auto rs = resultList();
    if (rs.size() != argNames.size()) fail("a for loop has one result per carried value");
    std::vector<Type> types;
    for (auto& r : rs) types.push_back(r.second.first);
    Op* o = b.create(OpKind::For, operands, types);
    o->cmp = cmp;
    Block* body = b.addRegion(o);
    define(ivName, b.addArg(body, lb->type));
    for (std::size_t j = 0; j < argNames.size(); ++j) {
      Value* a = b.addArg(body, types[j]);
      define(argNames[j], a);
      if (rs[j].second.second >= 0) layoutOf(a, rs[j].second.second);
    }
    expect("{");
    Builder inner{*k_, body, b.loc, {}, -1};
    block(inner);
    expect("}");
    for (std::size_t j = 0; j < rs.size(); ++j) {
      define(rs[j].first, o->results[j]);
      if (rs[j].second.second >= 0) layoutOf(o->results[j], rs[j].second.second);
    }
  }

  void ifOp(Builder& b) {
    Value* cond = use();
    auto rs = resultList();
    std::vector<Type> types;
    for (auto& r : rs) types.push_back(r.second.first);
    Op* o = b.create(OpKind::If, {cond}, types);
    if (accept("[")) attributes(*o);
    for (int r = 0; r < 2; ++r) {
      if (r == 1) {
        expect("else");
      }
      expect("{");
      Builder inner{*k_, b.addRegion(o), b.loc, {}, -1};
      block(inner);
      expect("}");
    }
    for (std::size_t j = 0; j < rs.size(); ++j) {
      define(rs[j].first, o->results[j]);
      if (rs[j].second.second >= 0) layoutOf(o->results[j], rs[j].second.second);
    }
  }
};

}  // namespace

std::vector<std::unique_ptr<Kernel>> parse(const std::string& text, const std::string& file, std::string& error) {
  Parser p(text, file);
  try {
    return p.run();
  } catch (const ParseError& e) {
    error = p.where() + ": error: " + e.what;
  } catch (const std::exception& e) {  // std::stoll and friends on malformed numbers
    error = p.where() + ": error: malformed number (" + e.what() + ")";
  }
  return {};
}

}  // namespace tilecc::ir
