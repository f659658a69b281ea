#include "codegen/CudaPrinter.h"

#include "ir/InternalError.h"
#include "ir/Names.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace tilecc {

using namespace ir;

namespace {

const char* kVersion = TILECC_VERSION;

// Shared memory per block: static arrays up to 48 KB; beyond, dynamic up to the sm_90 limit.
constexpr int kStaticSmemLimit = 48 * 1024;
constexpr int kMaxSmem = 227 * 1024;

// Marks in kernel text: where the code of a source line starts (kMark, then "<line> <file>"),
// and where kernel code ends. printCudaFile turns them into #line directives or drops them.
const char kMark[] = "\x01" "line ";
const char kEndMark[] = "\x01" "end";

std::string ctype(ElemType e) {
  switch (e.kind) {
    case Scalar::Bool: return "bool";
    case Scalar::I8: return "int8_t";
    case Scalar::U8: return "uint8_t";
    case Scalar::I32: return "int";
    case Scalar::U32: return "unsigned";
    case Scalar::I64: return "int64_t";
    case Scalar::U64: return "uint64_t";
    case Scalar::F16: return "__half";
    case Scalar::BF16: return "__nv_bfloat16";
    case Scalar::F32: return "float";
    case Scalar::Ptr: return std::string(e.pointeeConst ? "const " : "") + ctype(e.pointeeType()) + "*";
  }
  return "?";
}

bool isHalfLike(ElemType e) { return e.kind == Scalar::F16 || e.kind == Scalar::BF16; }

int log2i(int v) {
  int r = 0;
  while ((1 << r) < v) ++r;
  return r;
}

std::string floatLiteral(double f) {
  const float x = static_cast<float>(f);
  if (std::isinf(x)) return x > 0 ? "tilecc::inf()" : "(-tilecc::inf())";
  if (std::isnan(x)) return "tilecc::nan()";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(x));
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + "f";
}

struct Geo {
  const Layout* l = nullptr;
  int layoutIndex = -1;
  std::vector<int> shape;
  std::vector<AxisGeom> ax;
  std::vector<int> rstride;
  int n = 1;
};

/// Register view: element `reg` of a tile is base[Σ digit_a(reg) * strides[a]] (or a scalar).
struct View {
  bool scalar = false;
  std::string base;
  std::vector<int> strides;
};

class KernelPrinter {
 public:
  KernelPrinter(const Kernel& k, const std::vector<Layout>& L)
      : k_(k), L_(L), names_({"lane", "warp", "smem", "reg", "reg2", "threadIdx", "blockIdx", "blockDim", "gridDim",
                              "warpSize", "tilecc", "w", "part", "buf"}) {}

  bool run(CudaKernel& out);

 private:
  const Kernel& k_;
  const std::vector<Layout>& L_;
  Names names_;
  std::string body_;
  int indent_ = 1;
  std::vector<std::string> pre_;
  std::set<std::string> preNames_;
  std::map<int, View> views_;
  int smemBytes_ = 0;
  int smemBase_ = 0;  // bytes reserved below every other use (pipeline rings)
  bool smemBusy_ = false;
  // A load copied global → shared ahead of its iteration by cp.async (software pipelining of
  // the loads that feed dot in a loop): a ring of num_stages slots of [rows][cols] elements.
  struct Pipe {
    const Op* load = nullptr;
    int carried = 0;                  // index of its pointer among the loop's carried values
    const Value* inc = nullptr;       // the pointer's step per iteration (loop-invariant)
    int pitch = 0, slotBytes = 0, offset = 0, vec = 1;
    bool hoisted = false;             // a loop-invariant operand, staged once before the loop
    const Value* value = nullptr;     // the tile the dots read (the load's result, or the operand)
  };
  std::map<const Value*, Pipe> pipes_;            // load result → its ring, while its loop prints
  std::map<const Value*, std::string> subst_;     // scalars printed as another expression
  std::set<const Op*> skipped_;                   // ops of a pipelined loop only its copies needed
  std::string pipeRead_;                          // the slot the current iteration reads
  std::vector<std::string> smemPlan_;
  bool failed_ = false;
  bool usesHalf_ = false, usesBf16_ = false;
  std::set<const Value*> used_;
  std::vector<std::string> accesses_;

  void line(const std::string& s) { body_ += std::string(static_cast<std::size_t>(indent_) * 2, ' ') + s + "\n"; }

  unsigned markedLine_ = 0;
  std::string markedFile_;
  /// The code printed from here on comes from source line `l` (until the next mark).
  void mark(const Loc& l) {
    if (l.line == 0 || (l.line == markedLine_ && l.file == markedFile_)) return;
    markedLine_ = l.line;
    markedFile_ = l.file;
    body_ += kMark + std::to_string(l.line) + " " + l.file + "\n";
  }

  struct Unsupported {};
  [[noreturn]] void unsupported(const Op& o, const std::string& what) {
    std::fprintf(stderr, "%s:%u:%u: error: %s\n", o.loc.file.c_str(), o.loc.line, o.loc.col, what.c_str());
    failed_ = true;
    throw Unsupported{};
  }

  /// "const T name" (for pointers: "T const name", so the pointee keeps its own const).
  std::string constDecl(ElemType e, const std::string& n) {
    return e.isPtr() ? type(e) + " const " + n : "const " + type(e) + " " + n;
  }

  std::string type(ElemType e) {
    if (e.kind == Scalar::F16 || (e.isPtr() && e.pointee == Scalar::F16)) usesHalf_ = true;
    if (e.kind == Scalar::BF16 || (e.isPtr() && e.pointee == Scalar::BF16)) usesBf16_ = true;
    return ctype(e);
  }

  // ---- declarations hoisted to the top of the kernel ----
  const std::string& declare(const std::string& name, const std::string& decl) {
    if (preNames_.insert(name).second) pre_.push_back(decl);
    return name;
  }
  std::string lane() { return declare("lane", "const int lane = threadIdx.x & 31;"); }
  std::string warp() { return declare("warp", "const int warp = threadIdx.x >> 5;"); }

  // Thread position along parent dimension p of layout li (0 when one thread covers it).
  std::string threadPos(int li, int p) {
    const Layout& l = L_[static_cast<std::size_t>(li)];
    if (l.tpw[static_cast<std::size_t>(p)] * l.wpc[static_cast<std::size_t>(p)] == 1) return "0";
    int lstride = 1, wstride = 1;
    for (int q : l.order) {
      if (q == p) break;
      lstride *= l.tpw[static_cast<std::size_t>(q)];
      wstride *= l.wpc[static_cast<std::size_t>(q)];
    }
    const int tpw = l.tpw[static_cast<std::size_t>(p)], wpc = l.wpc[static_cast<std::size_t>(p)];
    std::string lanePart, warpPart;
    if (tpw > 1) lanePart = bits(lane(), lstride, tpw, 32);
    if (wpc > 1) warpPart = bits(warp(), wstride, wpc, k_.numWarps);
    std::string e = warpPart.empty() ? lanePart : lanePart.empty() ? warpPart : warpPart + " * " + std::to_string(tpw) + " + " + lanePart;
    const std::string name = "L" + std::to_string(li) + "_t" + std::to_string(p);
    return declare(name, "const int " + name + " = " + e + ";  // thread position along dim " + std::to_string(p) + " of L" + std::to_string(li));
  }

  /// (x / stride) % count for power-of-two stride and count, x < range.
  static std::string bits(const std::string& x, int stride, int count, int range) {
    std::string e = stride == 1 ? x : "(" + x + " >> " + std::to_string(log2i(stride)) + ")";
    if (stride * count < range) e = "(" + e + " & " + std::to_string(count - 1) + ")";
    return e;
  }

  Geo geo(const Value* v) {
    Geo g;
    if (v->layout < 0) internalError("tile value without a layout in " + k_.name);
    g.layoutIndex = v->layout;
    g.l = &L_[static_cast<std::size_t>(v->layout)];
    g.shape = v->type.shape;
    const int r = v->type.rank();
    for (int a = 0; a < r; ++a) g.ax.push_back(axisGeom(*g.l, a, g.shape[static_cast<std::size_t>(a)]));
    g.rstride.assign(static_cast<std::size_t>(r), 1);
    for (int a = r - 2; a >= 0; --a)
      g.rstride[static_cast<std::size_t>(a)] = g.rstride[static_cast<std::size_t>(a) + 1] * g.ax[static_cast<std::size_t>(a) + 1].regs;
    g.n = 1;
    for (auto& x : g.ax) g.n *= x.regs;
    return g;
  }

  static std::string digit(const Geo& g, int a, const std::string& i) {
    const auto& x = g.ax[static_cast<std::size_t>(a)];
    if (x.regs == 1) return "0";
    const int rs = g.rstride[static_cast<std::size_t>(a)];
    std::string d = rs == 1 ? i : "(" + i + " / " + std::to_string(rs) + ")";
    if (rs * x.regs != g.n) d = "(" + d + " % " + std::to_string(x.regs) + ")";
    return d;
  }

  // First coordinate this thread holds along axis a.
  std::string base(const Geo& g, int a) {
    const auto& x = g.ax[static_cast<std::size_t>(a)];
    const std::string t = threadPos(g.layoutIndex, x.parentDim);
    if (t == "0") return "0";
    const int spt = g.l->spt[static_cast<std::size_t>(x.parentDim)];
    std::string e = spt == 1 ? t : t + " * " + std::to_string(spt);
    if (!x.replicated) return e;
    if (spt >= x.extent) return "0";
    const std::string name = "L" + std::to_string(g.layoutIndex) + "_b" + std::to_string(x.parentDim) + "_" + std::to_string(x.extent);
    return declare(name, "const int " + name + " = (" + e + ") & " + std::to_string(x.extent - 1) + ";");
  }

  // Coordinate along axis a of register `i` (an expression).
  std::string coord(const Geo& g, int a, const std::string& i) {
    const auto& x = g.ax[static_cast<std::size_t>(a)];
    const std::string b = base(g, a);
    const std::string d = digit(g, a, i);
    std::string off;
    if (d == "0") off = "";
    else if (x.spt == 1) off = x.coverage == 1 ? d : d + " * " + std::to_string(x.coverage);
    else if (x.regs == x.spt) off = d;
    else off = "(" + d + " / " + std::to_string(x.spt) + ") * " + std::to_string(x.coverage) + " + " + d + " % " + std::to_string(x.spt);
    if (b == "0") return off.empty() ? "0" : off;
    return off.empty() ? b : b + " + " + off;
  }

  /// Condition under which this thread is the one owner of its elements (replicated layouts
  /// hold copies); empty when every thread owns its elements. `skipDim` is left out.
  std::string owner(const Geo& g, int skipDim = -1) {
    std::vector<std::string> conds;
    const Layout& l = *g.l;
    for (int p = 0; p < l.parentRank(); ++p) {
      if (p == skipDim || l.tpw[static_cast<std::size_t>(p)] * l.wpc[static_cast<std::size_t>(p)] == 1) continue;
      const auto it = std::find(l.dims.begin(), l.dims.end(), p);
      if (it == l.dims.end()) {
        conds.push_back(threadPos(g.layoutIndex, p) + " == 0");
      } else {
        const auto& x = g.ax[static_cast<std::size_t>(it - l.dims.begin())];
        if (x.replicated)
          conds.push_back(threadPos(g.layoutIndex, p) + " * " + std::to_string(l.spt[static_cast<std::size_t>(p)]) + " < " + std::to_string(x.extent));
      }
    }
    std::string s;
    for (auto& c : conds) s += (s.empty() ? "" : " && ") + c;
    return s;
  }

  std::string zero(ElemType e) {
    switch (e.kind) {
      case Scalar::Bool: return "false";
      case Scalar::F32: return "0.0f";
      case Scalar::F16: return "tilecc::cvt_f16(0.0f)";
      case Scalar::BF16: return "tilecc::cvt_bf16(0.0f)";
      case Scalar::Ptr: return "static_cast<" + type(e) + ">(nullptr)";
      case Scalar::I32: return "0";
      default: return type(e) + "(0)";
    }
  }

  // ---- values ----
  std::string scalar(const Value* v) {
    if (v->type.isTile()) internalError("scalar expected");
    if (auto it = subst_.find(v); it != subst_.end()) return it->second;
    const Op* d = v->def;
    if (d && d->kind == OpKind::Hint) return scalar(d->operands[0]);
    if (d && d->kind == OpKind::Constant) {
      const ElemType e = v->type.elem;
      if (e.isFloat()) {
        const std::string f = floatLiteral(d->f);
        return e.kind == Scalar::F32 ? f : (e.kind == Scalar::F16 ? "tilecc::cvt_f16(" : "tilecc::cvt_bf16(") + f + ")";
      }
      switch (e.kind) {
        case Scalar::Bool: return d->i ? "true" : "false";
        case Scalar::I32: return d->i == INT32_MIN ? "(-2147483647 - 1)" : std::to_string(d->i);
        case Scalar::U32: return std::to_string(static_cast<std::uint32_t>(d->i)) + "u";
        case Scalar::I64: return "int64_t(" + std::to_string(d->i) + "ll)";
        case Scalar::U64: return std::to_string(static_cast<std::uint64_t>(d->i)) + "ull";
        case Scalar::Ptr: return "static_cast<" + type(e) + ">(nullptr)";
        default: return type(e) + "(" + std::to_string(d->i) + ")";
      }
    }
    return names_.of(v);
  }

  View& view(const Value* v) {
    auto it = views_.find(v->id);
    if (it == views_.end()) internalError("no registers for value %" + std::to_string(v->id) + " in " + k_.name);
    return it->second;
  }

  /// Element `i` (register index expression) of v, or the scalar v.
  std::string el(const Value* v, const std::string& i) {
    if (!v->type.isTile()) return scalar(v);
    const View& w = view(v);
    if (w.scalar) return w.base;
    const Geo g = geo(v);
    bool identity = true;
    for (std::size_t a = 0; a < w.strides.size(); ++a)
      if (g.ax[a].regs > 1 && w.strides[a] != g.rstride[a]) identity = false;
    if (identity) return w.base + "[" + i + "]";
    std::string idx;
    for (int a = 0; a < static_cast<int>(w.strides.size()); ++a) {
      const int s = w.strides[static_cast<std::size_t>(a)];
      const std::string d = digit(g, a, i);
      if (s == 0 || d == "0") continue;
      idx += (idx.empty() ? "" : " + ") + (s == 1 ? d : d + " * " + std::to_string(s));
    }
    return w.base + "[" + (idx.empty() ? "0" : idx) + "]";
  }

  /// Declares the register array of a tile result; returns its name.
  std::string array(const Value* v, const std::string& comment = {}) {
    const Geo g = geo(v);
    const std::string n = names_.of(v);
    line(type(v->type.elem) + " " + n + "[" + std::to_string(g.n) + "];  // " + toString(v->type) + " in L" +
         std::to_string(v->layout) + (comment.empty() ? "" : ", " + comment));
    View w;
    w.base = n;
    w.strides = g.rstride;
    views_[v->id] = w;
    return n;
  }

  void loop(int n, const std::string& stmt) {
    if (n == 1) {
      std::string s = stmt;
      for (std::size_t pos; (pos = s.find("[reg]")) != std::string::npos;) s.replace(pos, 5, "[0]");
      line(s);
      return;
    }
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(n) + "; ++reg) " + stmt);
  }

  // ---- expressions with the language's semantics ----
  std::string f32(ElemType e, const std::string& x) { return isHalfLike(e) ? "tilecc::cvt_f32(" + x + ")" : x; }
  std::string fromF32(ElemType e, const std::string& x) {
    if (e.kind == Scalar::F16) return "tilecc::cvt_f16(" + x + ")";
    if (e.kind == Scalar::BF16) return "tilecc::cvt_bf16(" + x + ")";
    return x;
  }

  std::string convertExpr(ElemType from, ElemType to, const std::string& x) {
    if (from == to) return x;
    if (to.isPtr()) return "static_cast<" + type(to) + ">(" + x + ")";
    if (to.isBool()) return from.isFloat() ? "(" + f32(from, x) + " != 0.0f)" : "(" + x + " != 0)";
    if (to.kind == Scalar::F32) return from.isFloat() ? f32(from, x) : "tilecc::cvt_f32(" + x + ")";
    if (isHalfLike(to)) return fromF32(to, from.isFloat() ? f32(from, x) : "tilecc::cvt_f32(" + x + ")");
    if (from.isFloat()) {
      static const std::map<Scalar, std::string> fn = {{Scalar::I8, "cvt_i8"},   {Scalar::U8, "cvt_u8"},
                                                       {Scalar::I32, "cvt_i32"}, {Scalar::U32, "cvt_u32"},
                                                       {Scalar::I64, "cvt_i64"}, {Scalar::U64, "cvt_u64"}};
      return "tilecc::" + fn.at(to.kind) + "(" + f32(from, x) + ")";
    }
    return "static_cast<" + type(to) + ">(" + x + ")";
  }

  std::string binaryExpr(BinOp op, ElemType e, const std::string& a, const std::string& b, bool tile) {
    if (isHalfLike(e)) {
      const std::string fa = f32(e, a), fb = f32(e, b);
      if (isComparison(op)) return binaryExpr(op, ElemType::of(Scalar::F32), fa, fb, tile);
      return fromF32(e, binaryExpr(op, ElemType::of(Scalar::F32), fa, fb, tile));
    }
    auto infix = [&](const char* s) { return a + " " + s + " " + b; };
    const bool small = e.kind == Scalar::I8 || e.kind == Scalar::U8;
    auto narrow = [&](const std::string& x) { return small ? type(e) + "(" + x + ")" : x; };
    switch (op) {
      case BinOp::Add: return narrow(infix("+"));
      case BinOp::Sub: return narrow(infix("-"));
      case BinOp::Mul: return narrow(infix("*"));
      case BinOp::Div:
        if (e.isInt() && tile) return "tilecc::div(" + a + ", " + b + ")";
        return infix("/");
      case BinOp::Rem:
        if (tile) return "tilecc::rem(" + a + ", " + b + ")";
        return infix("%");
      case BinOp::Shl:
        if (tile) return "tilecc::shl(" + a + ", " + convertExpr(e, e, b) + ")";
        return narrow(infix("<<"));
      case BinOp::Shr:
        if (tile) return "tilecc::shr(" + a + ", " + b + ")";
        return infix(">>");
      case BinOp::And: return narrow(e.isBool() ? "(" + a + " && " + b + ")" : infix("&"));
      case BinOp::Or: return narrow(e.isBool() ? "(" + a + " || " + b + ")" : infix("|"));
      case BinOp::Xor: return narrow(e.isBool() ? "(" + a + " != " + b + ")" : infix("^"));
      case BinOp::Max:
        if (e.kind == Scalar::F32) return "fmaxf(" + a + ", " + b + ")";
        return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
      case BinOp::Min:
        if (e.kind == Scalar::F32) return "fminf(" + a + ", " + b + ")";
        return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
      case BinOp::Pow: return "powf(" + a + ", " + b + ")";
      case BinOp::Eq: return infix("==");
      case BinOp::Ne: return infix("!=");
      case BinOp::Lt: return infix("<");
      case BinOp::Le: return infix("<=");
      case BinOp::Gt: return infix(">");
      case BinOp::Ge: return infix(">=");
    }
    return "?";
  }

  std::string unaryExpr(UnOp op, ElemType e, const std::string& a) {
    if (isHalfLike(e) && op != UnOp::Not) return fromF32(e, unaryExpr(op, ElemType::of(Scalar::F32), f32(e, a)));
    const bool small = e.kind == Scalar::I8 || e.kind == Scalar::U8;
    switch (op) {
      case UnOp::Neg: return small || e.kind == Scalar::U32 ? type(e) + "(-" + a + ")" : "-" + a;
      case UnOp::Not: return "!" + a;
      case UnOp::BitNot: return small ? type(e) + "(~" + a + ")" : "~" + a;
      case UnOp::Abs: return e.isFloat() ? "fabsf(" + a + ")" : (e.isSigned() ? "(" + a + " < 0 ? " + type(e) + "(-" + a + ") : " + a + ")" : a);
      case UnOp::Exp: return "expf(" + a + ")";
      case UnOp::Exp2: return "exp2f(" + a + ")";
      case UnOp::Log: return "logf(" + a + ")";
      case UnOp::Log2: return "log2f(" + a + ")";
      case UnOp::Sqrt: return "sqrtf(" + a + ")";
      case UnOp::Rsqrt: return "(1.0f / sqrtf(" + a + "))";
      case UnOp::Sin: return "sinf(" + a + ")";
      case UnOp::Cos: return "cosf(" + a + ")";
      case UnOp::Tan: return "tanf(" + a + ")";
      case UnOp::Tanh: return "tanhf(" + a + ")";
      case UnOp::Erf: return "erff(" + a + ")";
      case UnOp::Sigmoid: return "(1.0f / (1.0f + expf(-" + a + ")))";
      case UnOp::Floor: return "floorf(" + a + ")";
      case UnOp::Ceil: return "ceilf(" + a + ")";
      case UnOp::Trunc: return "truncf(" + a + ")";
      case UnOp::Round: return "roundf(" + a + ")";
    }
    return "?";
  }

  // ---- shared memory ----
  /// Shared memory for one use, after what is reserved (the rings of a pipelined loop);
  /// returns the address expression.
  std::string smemFor(int bytes, const std::string& what) {
    smemBytes_ = std::max(smemBytes_, smemBase_ + bytes);
    smemPlan_.push_back(what + ": " + std::to_string(bytes) + " bytes" +
                        (smemBase_ ? " at offset " + std::to_string(smemBase_) : ""));
    if (smemBusy_) line("__syncthreads();  // earlier readers of shared memory are done");
    return smemBase_ ? "(smem + " + std::to_string(smemBase_) + ")" : "smem";
  }
  /// Bytes per shared-memory row for ldmatrix: a multiple of 16 with an odd quotient, so the
  /// eight rows one ldmatrix reads fall into distinct banks.
  static int ldmatrixPitch(int rowBytes) {
    int p = (rowBytes + 15) / 16 * 16;
    if ((p / 16) % 2 == 0) p += 16;
    return p;
  }

  // Row-major offset of a coordinate tuple, the last axis padded by `pad` elements.
  static std::string smemIndex(const std::vector<int>& shape, const std::vector<std::string>& c, int pad) {
    std::string idx;
    long long pitch = 1;
    for (int a = static_cast<int>(shape.size()) - 1; a >= 0; --a) {
      const std::string& x = c[static_cast<std::size_t>(a)];
      if (x != "0") idx = (idx.empty() ? "" : idx + " + ") + (pitch == 1 ? "(" + x + ")" : "(" + x + ") * " + std::to_string(pitch));
      pitch *= shape[static_cast<std::size_t>(a)] + (a == static_cast<int>(shape.size()) - 1 ? pad : 0);
    }
    return idx.empty() ? "0" : idx;
  }
  static int padFor(const std::vector<int>& shape, int bytes) {
    if (shape.size() < 2 || shape.back() * bytes < 128) return 0;
    return std::max(1, 4 / bytes);
  }
  static long long paddedSize(const std::vector<int>& shape, int pad) {
    long long n = 1;
    for (std::size_t a = 0; a < shape.size(); ++a) n *= shape[a] + (a + 1 == shape.size() ? pad : 0);
    return n;
  }

  /// dst (in its layout) = src (in another) through shared memory; with onlyOwners the
  /// copies in src that are not owners skip the write.
  void exchange(const Value* src, const Value* dst, const std::string& srcArray, const std::string& why) {
    const Geo gs = geo(src), gd = geo(dst);
    const ElemType e = src->type.elem;
    const int bytes = e.bytes();
    const bool flat = gs.shape != gd.shape;  // reshape: same row-major order, no padding
    const int pad = flat ? 0 : padFor(gd.shape, bytes);
    const long long size = flat ? src->type.numel() : paddedSize(gd.shape, pad);
    const std::string base = smemFor(static_cast<int>(size * bytes), why);
    const std::string buf = "reinterpret_cast<" + type(e) + "*>(" + base + ")";
    auto indexOf = [&](const Geo& g, const std::string& i) {
      std::vector<std::string> c;
      for (int a = 0; a < static_cast<int>(g.shape.size()); ++a) c.push_back(coord(g, a, i));
      return smemIndex(g.shape, c, pad);
    };
    const std::string own = owner(gs);
    const std::string dstName = array(dst, why);
    line("{");
    ++indent_;
    line(type(e) + "* buf = " + buf + ";");
    loop(gs.n, (own.empty() ? "" : "if (" + own + ") ") + "buf[" + indexOf(gs, "reg") + "] = " + srcArray + ";");
    line("__syncthreads();");
    loop(gd.n, dstName + "[reg] = buf[" + indexOf(gd, "reg") + "];");
    --indent_;
    line("}");
    smemBusy_ = true;
  }


  // ---- vector accesses: `vec` consecutive elements as one 2/4/8/16-byte word group ----
  static std::string wordType(int total) {
    return total == 16 ? "uint4" : total == 8 ? "uint2" : total == 4 ? "unsigned" : total == 2 ? "unsigned short" : "unsigned char";
  }
  static std::string word(int total, int index) {
    static const char* parts[] = {".x", ".y", ".z", ".w"};
    return total >= 8 ? std::string("w") + parts[index] : "w";
  }
  /// Element s of the loaded words.
  std::string unpack(ElemType e, int total, int s) {
    const int bytes = e.bytes();
    const int byteOff = s * bytes;
    if (bytes == 8) {
      const std::string lo = word(total, byteOff / 4), hi = word(total, byteOff / 4 + 1);
      return "static_cast<" + type(e) + ">((static_cast<unsigned long long>(" + hi + ") << 32) | " + lo + ")";
    }
    const std::string w = word(total, byteOff / 4);
    const int shift = (byteOff % 4) * 8;
    const std::string sh = shift ? "(" + w + " >> " + std::to_string(shift) + ")" : w;
    switch (e.kind) {
      case Scalar::F32: return "__uint_as_float(" + w + ")";
      case Scalar::I32: return "static_cast<int>(" + w + ")";
      case Scalar::U32: return w;
      case Scalar::F16: return "__ushort_as_half(static_cast<unsigned short>(" + sh + "))";
      case Scalar::BF16: return "__ushort_as_bfloat16(static_cast<unsigned short>(" + sh + "))";
      case Scalar::Bool: return "((" + sh + " & 0xffu) != 0)";
      default: return "static_cast<" + type(e) + ">(" + sh + " & 0xffu)";
    }
  }
  /// The bits of element x, widened to a 32-bit word at the element's position.
  std::string packPart(ElemType e, const std::string& x, int shift) {
    std::string b;
    switch (e.kind) {
      case Scalar::F32: b = "__float_as_uint(" + x + ")"; break;
      case Scalar::F16: b = "static_cast<unsigned>(__half_as_ushort(" + x + "))"; break;
      case Scalar::BF16: b = "static_cast<unsigned>(__bfloat16_as_ushort(" + x + "))"; break;
      case Scalar::I32:
      case Scalar::U32: b = "static_cast<unsigned>(" + x + ")"; break;
      default: b = "(static_cast<unsigned>(" + x + ") & 0xffu)"; break;
    }
    return shift ? "(" + b + " << " + std::to_string(shift) + ")" : b;
  }

  /// Registers of the vector group starting at `reg` along axis a (stride in registers).
  struct VecPlan {
    bool ok = false;
    int vec = 1, axis = 0, stride = 1, total = 0;
    bool lastAxis = true;
  };
  VecPlan vecPlan(const Op& o, const Geo& g) {
    VecPlan v;
    if (o.vec <= 1 || o.vecAxis < 0) return v;
    const auto& x = g.ax[static_cast<std::size_t>(o.vecAxis)];
    const int bytes = o.operands[0]->type.elem.pointeeType().bytes();
    // A thread holds runs of spt elements: an aligned part of a proven run is as good.
    const int vec = std::min(o.vec, x.spt & -x.spt);
    if (vec <= 1 || bytes > 8) return v;
    v.ok = true;
    v.vec = vec;
    v.axis = o.vecAxis;
    v.stride = g.rstride[static_cast<std::size_t>(o.vecAxis)];
    v.total = vec * bytes;
    v.lastAxis = o.vecAxis == static_cast<int>(g.shape.size()) - 1;
    return v;
  }
  void vecLoop(const Geo& g, const VecPlan& v, const std::vector<std::string>& body) {
    line("#pragma unroll");
    if (v.lastAxis) {
      line("for (int reg = 0; reg < " + std::to_string(g.n) + "; reg += " + std::to_string(v.vec) + ") {");
    } else {
      line("for (int reg = 0; reg < " + std::to_string(g.n) + "; ++reg) {");
      line("  if (" + digit(g, v.axis, "reg") + " % " + std::to_string(v.vec) + " != 0) continue;");
    }
    ++indent_;
    for (const auto& b : body) line(b);
    --indent_;
    line("}");
  }
  std::string at(const std::string& base, const VecPlan& v, int s) {
    if (s == 0) return base + "[reg]";
    return base + "[reg + " + std::to_string(s * v.stride) + "]";
  }
  std::string elAt(const Value* val, const VecPlan& v, int s) {
    return el(val, s == 0 ? "reg" : "(reg + " + std::to_string(s * v.stride) + ")");
  }
  std::string variantConditionText() {
    std::string s;
    for (std::size_t i = 0; i < k_.assumed.size(); ++i) {
      const auto [index, value] = k_.assumed[i];
      s += (i ? ", " : "") + k_.paramInfo[static_cast<std::size_t>(index)].name +
           (k_.params[static_cast<std::size_t>(index)]->type.elem.isPtr() ? " is aligned to " : " is a multiple of ") +
           std::to_string(value);
    }
    return s;
  }

  void accessNote(const Op& o, const std::string& what, ElemType e, const VecPlan& v) {
    const int bytes = e.bytes();
    const int vec = v.ok ? v.vec : 1;
    std::string s = what + " at line " + std::to_string(o.loc.line) + ": " + std::to_string(vec) + " x " + toString(e) +
                    " = " + std::to_string(vec * bytes) + " bytes per access";
    if (vec < o.vec)
      s += " (" + std::to_string(o.vec) + " proven; the layout holds " + std::to_string(vec) + " consecutive elements per thread)";
    else if (!o.vecNote.empty())
      s += " (" + o.vecNote + ")";
    accesses_.push_back(s);
  }

  // ---- ops ----
  void block(const Block& b);
  void op(const Op& o);
  void reduce(const Op& o);
  void dot(const Op& o);
  void stage(const Value* v, const std::string& buf, int rowAxis, int pitch, const std::string& in);
  void forOp(const Op& o);
  std::vector<Pipe> findPipes(const Op& loop);
  std::vector<Pipe> startPipeline(const Op& o, const std::vector<Pipe>& pipes, std::string& pipeWrite);
  bool readsAsStaged(const Block& body, const Value* r);
  bool readsBTransposed(const Op& d);
  bool loopInvariantChain(const Block& body, const Value* v, const Value* iv, std::vector<const Op*>& chain);
  void issueCopies(const Op& loop, const std::vector<Pipe>& pipes, const std::string& iter, int ahead,
                   const std::string& slot, bool inLoop);
  void ifOp(const Op& o);
  void assignCarried(const std::vector<const Value*>& targets, const std::vector<const Value*>& values);
  bool containsSmem(const Block& b);
};

bool KernelPrinter::containsSmem(const Block& b) {
  bool found = false;
  walk(const_cast<Block&>(b), [&](Op& o) {
    if (o.kind == OpKind::ConvertLayout || o.kind == OpKind::Reshape || o.kind == OpKind::Reduce ||
        o.kind == OpKind::AtomicAdd || o.kind == OpKind::Barrier || o.kind == OpKind::Dot)
      found = true;
  });
  return found;
}

void KernelPrinter::block(const Block& b) {
  for (const auto& o : b.ops) {
    if (o->kind == OpKind::Yield || o->kind == OpKind::Constant) continue;  // handled by the parent / inline
    if (skipped_.count(o.get())) continue;
    mark(o->loc);
    op(*o);
  }
}

void KernelPrinter::op(const Op& o) {
  const Value* r = o.result();
  auto tile = [&]() { return r && r->type.isTile(); };
  switch (o.kind) {
    case OpKind::Constant: return;  // printed inline
    case OpKind::ProgramId:
    case OpKind::NumPrograms: {
      static const char* axes[] = {"x", "y", "z"};
      line("const int " + names_.of(r) + " = " + (o.kind == OpKind::ProgramId ? "blockIdx." : "gridDim.") + axes[o.i] + ";");
      return;
    }
    case OpKind::Splat: {
      View w;
      w.scalar = true;
      w.base = scalar(o.operands[0]);
      views_[r->id] = w;
      return;
    }
    case OpKind::Broadcast:
    case OpKind::ExpandDims:
    case OpKind::Trans: {
      const Value* x = o.operands[0];
      const View& src = view(x);
      View w = src;
      if (!src.scalar) {
        const Layout& rl = L_[static_cast<std::size_t>(r->layout)];
        const Layout& xl = L_[static_cast<std::size_t>(x->layout)];
        if (o.kind == OpKind::Broadcast) {
          if (!(rl == xl)) internalError("broadcast across layouts in " + k_.name);
          for (std::size_t a = 0; a < w.strides.size(); ++a)
            if (x->type.shape[a] == 1 && r->type.shape[a] != 1) w.strides[a] = 0;
        } else if (o.kind == OpKind::ExpandDims) {
          if (!(removeAxis(rl, static_cast<int>(o.i)) == xl)) internalError("expand_dims across layouts in " + k_.name);
          w.strides.insert(w.strides.begin() + o.i, 0);
        } else {
          if (!(transposed(rl) == xl)) internalError("trans across layouts in " + k_.name);
          std::swap(w.strides[0], w.strides[1]);
        }
      }
      views_[r->id] = w;
      return;
    }
    case OpKind::Arange: {
      const Geo g = geo(r);
      const std::string n = array(r);
      loop(g.n, n + "[reg] = " + coord(g, 0, "reg") + ";");
      return;
    }
    case OpKind::Binary:
    case OpKind::Unary:
    case OpKind::Fma:
    case OpKind::Select:
    case OpKind::Convert:
    case OpKind::AddPtr: {
      auto expr = [&](const std::string& i) {
        const ElemType e = o.operands[0]->type.elem;
        switch (o.kind) {
          case OpKind::Binary: return binaryExpr(o.binop(), e, el(o.operands[0], i), el(o.operands[1], i), tile());
          case OpKind::Unary: return unaryExpr(o.unop(), e, el(o.operands[0], i));
          case OpKind::Fma:
            if (e.kind == Scalar::F32) return "fmaf(" + el(o.operands[0], i) + ", " + el(o.operands[1], i) + ", " + el(o.operands[2], i) + ")";
            if (isHalfLike(e))
              return fromF32(e, "fmaf(" + f32(e, el(o.operands[0], i)) + ", " + f32(e, el(o.operands[1], i)) + ", " + f32(e, el(o.operands[2], i)) + ")");
            return binaryExpr(BinOp::Add, e, binaryExpr(BinOp::Mul, e, el(o.operands[0], i), el(o.operands[1], i), tile()), el(o.operands[2], i), tile());
          case OpKind::Select: return el(o.operands[0], i) + " ? " + el(o.operands[1], i) + " : " + el(o.operands[2], i);
          case OpKind::Convert: return convertExpr(e, r->type.elem, el(o.operands[0], i));
          default: return el(o.operands[0], i) + " + " + el(o.operands[1], i);
        }
      };
      if (!tile()) {
        line(constDecl(r->type.elem, names_.of(r)) + " = " + expr("0") + ";");
        return;
      }
      const Geo g = geo(r);
      const std::string n = array(r);
      loop(g.n, n + "[reg] = " + expr("reg") + ";");
      return;
    }
    case OpKind::Load: {
      if (pipes_.count(r)) {
        accessNote(o, "load", r->type.elem, vecPlan(o, geo(o.operands[0])));
        accesses_.back() += ", copied to shared memory ahead by cp.async";
        return;
      }
      const Value* p = o.operands[0];
      const std::string pe = el(p, "reg");
      if (!tile()) {
        std::string e = "*" + scalar(p);
        if (o.operands.size() >= 2) e = scalar(o.operands[1]) + " ? " + e + " : " + (o.operands.size() >= 3 ? scalar(o.operands[2]) : zero(r->type.elem));
        line(constDecl(r->type.elem, names_.of(r)) + " = " + e + ";");
        return;
      }
      const Geo g = geo(r);
      const Geo gp = geo(p);
      const VecPlan v = vecPlan(o, gp);
      accessNote(o, "load", r->type.elem, v);
      if (v.ok) {
        const std::string n = array(r, std::to_string(v.vec) + " elements per access");
        const std::string wt = wordType(v.total);
        std::vector<std::string> body;
        const std::string ld = "const " + wt + " w = *reinterpret_cast<const " + wt + "*>(" + pe + ");";
        if (o.operands.size() >= 2) {
          body.push_back("if (" + el(o.operands[1], "reg") + ") {");
          body.push_back("  " + ld);
          for (int s2 = 0; s2 < v.vec; ++s2) body.push_back("  " + at(n, v, s2) + " = " + unpack(r->type.elem, v.total, s2) + ";");
          body.push_back("} else {");
          for (int s2 = 0; s2 < v.vec; ++s2)
            body.push_back("  " + at(n, v, s2) + " = " + (o.operands.size() >= 3 ? elAt(o.operands[2], v, s2) : zero(r->type.elem)) + ";");
          body.push_back("}");
        } else {
          body.push_back(ld);
          for (int s2 = 0; s2 < v.vec; ++s2) body.push_back(at(n, v, s2) + " = " + unpack(r->type.elem, v.total, s2) + ";");
        }
        vecLoop(g, v, body);
        return;
      }
      const std::string n = array(r, "one element per access");
      std::string e = "*" + pe;
      if (o.operands.size() >= 2)
        e = el(o.operands[1], "reg") + " ? " + e + " : " + (o.operands.size() >= 3 ? el(o.operands[2], "reg") : zero(r->type.elem));
      loop(g.n, n + "[reg] = " + e + ";");
      return;
    }
    case OpKind::Store: {
      const Value* p = o.operands[0];
      if (!p->type.isTile()) {
        std::string cond = "threadIdx.x == 0";
        if (o.operands.size() >= 3) cond += " && " + scalar(o.operands[2]);
        line("if (" + cond + ") *" + scalar(p) + " = " + scalar(o.operands[1]) + ";");
        return;
      }
      const Geo g = geo(p);
      std::string cond = owner(g);
      if (o.operands.size() >= 3) cond += (cond.empty() ? "" : " && ") + el(o.operands[2], "reg");
      const ElemType e = o.operands[1]->type.elem;
      const VecPlan v = vecPlan(o, g);
      accessNote(o, "store", e, v);
      if (v.ok) {
        const std::string wt = wordType(v.total);
        std::vector<std::string> body;
        body.push_back(wt + " w;");
        const int bytes = e.bytes();
        const int words = std::max(1, v.total / 4);
        for (int wi = 0; wi < words; ++wi) {
          std::string val;
          if (bytes == 8) {
            const std::string x = elAt(o.operands[1], v, wi / 2);
            val = wi % 2 == 0 ? "static_cast<unsigned>(static_cast<unsigned long long>(" + x + "))"
                              : "static_cast<unsigned>(static_cast<unsigned long long>(" + x + ") >> 32)";
          } else {
            const int perWord = std::min(v.vec, 4 / bytes);
            for (int k2 = 0; k2 < perWord; ++k2) {
              const int s2 = wi * (4 / bytes) + k2;
              val += (val.empty() ? "" : " | ") + packPart(e, elAt(o.operands[1], v, s2), k2 * bytes * 8);
            }
          }
          const std::string target = v.total >= 8 ? word(v.total, wi) : "w";
          body.push_back(target + " = " + (v.total < 4 ? "static_cast<" + wt + ">(" + val + ")" : val) + ";");
        }
        body.push_back((cond.empty() ? "" : "if (" + cond + ") ") + "*reinterpret_cast<" + wt + "*>(" + el(p, "reg") + ") = w;");
        vecLoop(g, v, body);
        return;
      }
      loop(g.n, (cond.empty() ? "" : "if (" + cond + ") ") + "*" + el(p, "reg") + " = " + el(o.operands[1], "reg") + ";");
      return;
    }
    case OpKind::AtomicAdd: {
      const Value* p = o.operands[0];
      const ElemType e = o.operands[1]->type.elem;
      if (!p->type.isTile()) {
        if (!used_.count(r)) {
          line("if (threadIdx.x == 0) tilecc::atomic_add(" + scalar(p) + ", " + scalar(o.operands[1]) + ");");
          return;
        }
        const std::string n = names_.of(r);
        const std::string base = smemFor(e.bytes(), "scalar atomic result");
        line(type(e) + " " + n + ";");
        line("{");
        ++indent_;
        line(type(e) + "* buf = reinterpret_cast<" + type(e) + "*>(" + base + ");");
        line("if (threadIdx.x == 0) *buf = tilecc::atomic_add(" + scalar(p) + ", " + scalar(o.operands[1]) + ");");
        line("__syncthreads();");
        line(n + " = *buf;");
        --indent_;
        line("}");
        smemBusy_ = true;
        return;
      }
      const Geo g = geo(p);
      std::string cond = owner(g);
      const bool replicated = !cond.empty();
      if (o.operands.size() >= 3) cond += (cond.empty() ? "" : " && ") + el(o.operands[2], "reg");
      const std::string zero = this->zero(e);
      const std::string call = "tilecc::atomic_add(" + el(p, "reg") + ", " + el(o.operands[1], "reg") + ")";
      if (!used_.count(r)) {  // old values unused: owners just add
        loop(g.n, (cond.empty() ? "" : "if (" + cond + ") ") + call + ";");
        return;
      }
      if (!replicated) {
        const std::string n = array(r, "old values");
        loop(g.n, n + "[reg] = " + (cond.empty() ? call : cond + " ? " + call + " : " + zero) + ";");
        return;
      }
      // Only owners add; the old values reach every copy through shared memory.
      const std::string raw = names_.of(r) + "_own";
      line(type(e) + " " + raw + "[" + std::to_string(g.n) + "];");
      loop(g.n, raw + "[reg] = " + cond + " ? " + call + " : " + zero + ";");
      exchange(p, r, raw + "[reg]", "atomic_add old values to every copy");
      return;
    }
    case OpKind::ConvertLayout: {
      const Value* x = o.operands[0];
      if (!x->type.isTile()) internalError("convert_layout of a scalar");
      exchange(x, r, el(x, "reg"), "layout conversion L" + std::to_string(x->layout) + " -> L" + std::to_string(r->layout));
      return;
    }
    case OpKind::Reshape: {
      const Value* x = o.operands[0];
      exchange(x, r, el(x, "reg"), "reshape");
      return;
    }
    case OpKind::Reduce: reduce(o); return;
    case OpKind::Barrier:
      line("__syncthreads();  // barrier()");
      smemBusy_ = false;
      return;
    case OpKind::For: forOp(o); return;
    case OpKind::If: ifOp(o); return;
    case OpKind::Return: line("return;"); return;
    case OpKind::Dot: dot(o); return;
    case OpKind::Yield: return;
    case OpKind::Hint:
      if (r->type.isTile()) views_[r->id] = view(o.operands[0]);
      return;
  }
}

void KernelPrinter::reduce(const Op& o) {
  const Value* x = o.operands[0];
  const Value* r = o.result();
  const ReduceKind rk = o.reduceKind();
  const bool arg = rk == ReduceKind::ArgMax || rk == ReduceKind::ArgMin;
  const int axis = static_cast<int>(o.i);
  const Geo gx = geo(x);
  const auto& ax = gx.ax[static_cast<std::size_t>(axis)];
  const int p = ax.parentDim;
  const Layout& l = *gx.l;
  const ElemType xe = x->type.elem;
  // Half and bfloat16 compare and combine in float.
  const ElemType ce = isHalfLike(xe) ? ElemType::of(Scalar::F32) : xe;
  const std::string ct = type(ce);
  auto val = [&](const std::string& i) { return convertExpr(xe, ce, el(x, i)); };
  auto combine = [&](const std::string& a, const std::string& b) {
    switch (rk) {
      case ReduceKind::Sum: return binaryExpr(BinOp::Add, ce, a, b, true);
      case ReduceKind::Max: return binaryExpr(BinOp::Max, ce, a, b, true);
      default: return binaryExpr(BinOp::Min, ce, a, b, true);
    }
  };
  const std::string better = rk == ReduceKind::ArgMax ? "tilecc::better_max" : "tilecc::better_min";

  // Result registers: the result is x without `axis`, in the slice layout.
  std::vector<int> rshape = x->type.shape;
  rshape.erase(rshape.begin() + axis);
  int rn = 1;
  std::vector<int> rregs;
  for (int a = 0; a < x->type.rank(); ++a)
    if (a != axis) {
      rregs.push_back(gx.ax[static_cast<std::size_t>(a)].regs);
      rn *= gx.ax[static_cast<std::size_t>(a)].regs;
    }
  // Input register of result register j (digits of the other axes) and step k along the axis.
  auto inputReg = [&](const std::string& j, const std::string& k) {
    std::string idx;
    int rs = 1;
    std::vector<std::string> terms;
    for (int a = x->type.rank() - 1, ra = static_cast<int>(rregs.size()) - 1; a >= 0; --a) {
      if (a == axis) continue;
      const int regs = rregs[static_cast<std::size_t>(ra)];
      if (regs > 1) {
        std::string d = rs == 1 ? j : "(" + j + " / " + std::to_string(rs) + ")";
        if (rs * regs != rn) d = "(" + d + " % " + std::to_string(regs) + ")";
        const int s = gx.rstride[static_cast<std::size_t>(a)];
        terms.push_back(s == 1 ? d : d + " * " + std::to_string(s));
      }
      rs *= regs;
      --ra;
    }
    if (k != "0") {
      const int s = gx.rstride[static_cast<std::size_t>(axis)];
      terms.push_back(s == 1 ? k : k + " * " + std::to_string(s));
    }
    for (auto& t : terms) idx += (idx.empty() ? "" : " + ") + t;
    return idx.empty() ? std::string("0") : idx;
  };

  const std::string n = names_.of(r);
  const std::string part = n + (r->type.isTile() ? "" : "_part");
  const std::string idxName = n + "_idx";
  line("// " + std::string(name(rk)) + " along axis " + std::to_string(axis) + ": in-thread, then lanes (shuffles)" +
       std::string(ax.threads > l.tpw[static_cast<std::size_t>(p)] ? ", then warps (shared memory)" : ""));

  if (r->type.isTile()) {
    const std::string rn_s = std::to_string(rn);
    line(ct + " " + part + "[" + rn_s + "];  // " + toString(r->type) + " in L" + std::to_string(r->layout));
  } else {
    line(ct + " " + part + "[1];");
  }
  if (arg) line("int " + idxName + "[" + std::to_string(rn) + "];");
  // 1. within the thread, in increasing coordinate order
  const std::string c0 = coord(gx, axis, "0");
  line("#pragma unroll");
  line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg) {");
  ++indent_;
  line(part + "[reg] = " + val(inputReg("reg", "0")) + ";");
  if (arg) line(idxName + "[reg] = " + c0 + ";");
  if (ax.regs > 1) {
    line("#pragma unroll");
    line("for (int reg2 = 1; reg2 < " + std::to_string(ax.regs) + "; ++reg2) {");
    ++indent_;
    if (arg) {
      // coordinate of step reg2 along the axis
      Geo g1 = gx;
      const std::string ck = coord(g1, axis, inputReg("0", "reg2"));
      line("const " + ct + " v = " + val(inputReg("reg", "reg2")) + ";");
      line("const int vi = " + ck + ";");
      line("if (" + better + "(v, vi, " + part + "[reg], " + idxName + "[reg])) { " + part + "[reg] = v; " + idxName + "[reg] = vi; }");
    } else {
      line(part + "[reg] = " + combine(part + "[reg]", val(inputReg("reg", "reg2"))) + ";");
    }
    --indent_;
    line("}");
  }
  --indent_;
  line("}");
  // 2. across lanes: butterfly over the lanes that hold distinct elements of the axis
  const int distinctThreads = std::max(1, ax.extent / ax.spt);
  const int tpw = l.tpw[static_cast<std::size_t>(p)];
  const int lanesDistinct = std::min(tpw, distinctThreads);
  int lstride = 1;
  for (int q : l.order) {
    if (q == p) break;
    lstride *= l.tpw[static_cast<std::size_t>(q)];
  }
  if (lanesDistinct > 1) {
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg) {");
    ++indent_;
    for (int off = 1; off < lanesDistinct; off *= 2) {
      const std::string m = std::to_string(off * lstride);
      if (arg) {
        line("{");
        ++indent_;
        line("const " + ct + " v = __shfl_xor_sync(0xffffffffu, " + part + "[reg], " + m + ");");
        line("const int vi = __shfl_xor_sync(0xffffffffu, " + idxName + "[reg], " + m + ");");
        line("if (" + better + "(v, vi, " + part + "[reg], " + idxName + "[reg])) { " + part + "[reg] = v; " + idxName + "[reg] = vi; }");
        --indent_;
        line("}");
      } else {
        line(part + "[reg] = " + combine(part + "[reg]", "__shfl_xor_sync(0xffffffffu, " + part + "[reg], " + m + ")") + ";");
      }
    }
    --indent_;
    line("}");
  }
  // 3. across warps, through shared memory
  const int warpsDistinct = std::min(l.wpc[static_cast<std::size_t>(p)], std::max(1, distinctThreads / tpw));
  if (warpsDistinct > 1) {
    int wstride = 1;
    for (int q : l.order) {
      if (q == p) break;
      wstride *= l.wpc[static_cast<std::size_t>(q)];
    }
    long long outN = 1;
    for (int d : rshape) outN *= d;
    const int bytes = static_cast<int>(warpsDistinct * outN * (ce.bytes() + (arg ? 4 : 0)));
    const std::string base = smemFor(bytes, std::string(name(rk)) + " across " + std::to_string(warpsDistinct) + " warps");
    const std::string wp = bits(warp(), wstride, l.wpc[static_cast<std::size_t>(p)], k_.numWarps);
    const std::string lp = tpw > 1 ? bits(lane(), lstride, tpw, 32) : "0";
    // Flat output coordinate of result register j: coordinates along the other axes.
    std::vector<std::string> oc;
    std::vector<int> oshape;
    for (int a = 0; a < x->type.rank(); ++a)
      if (a != axis) {
        oc.push_back(coord(gx, a, inputReg("reg", "0")));
        oshape.push_back(x->type.shape[static_cast<std::size_t>(a)]);
      }
    const std::string oidx = smemIndex(oshape, oc, 0);
    auto slot = [&](const std::string& w) {
      const std::string base = outN == 1 ? w : w + " * " + std::to_string(outN);
      return oidx == "0" ? base : base + " + " + oidx;
    };
    std::vector<std::string> conds;
    if (lp != "0") conds.push_back(lp + " == 0");
    if (warpsDistinct < l.wpc[static_cast<std::size_t>(p)]) conds.push_back(wp + " < " + std::to_string(warpsDistinct));
    const std::string others = owner(gx, p);
    if (!others.empty()) conds.push_back(others);
    std::string writer;
    for (auto& c : conds) writer += (writer.empty() ? "" : " && ") + c;
    if (writer.empty()) writer = "true";
    line("{");
    ++indent_;
    line(ct + "* buf = reinterpret_cast<" + ct + "*>(" + base + ");");
    if (arg) line("int* ibuf = reinterpret_cast<int*>(buf + " + std::to_string(warpsDistinct * outN) + ");");
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg)");
    line("  if (" + writer + ") {");
    line("    buf[" + slot(wp) + "] = " + part + "[reg];");
    if (arg) line("    ibuf[" + slot(wp) + "] = " + idxName + "[reg];");
    line("  }");
    line("__syncthreads();");
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg) {");
    ++indent_;
    line(part + "[reg] = buf[" + oidx + "];");
    if (arg) line(idxName + "[reg] = ibuf[" + oidx + "];");
    line("for (int w = 1; w < " + std::to_string(warpsDistinct) + "; ++w) {");
    ++indent_;
    if (arg) {
      line("const " + ct + " v = buf[" + slot("w") + "];");
      line("const int vi = ibuf[" + slot("w") + "];");
      line("if (" + better + "(v, vi, " + part + "[reg], " + idxName + "[reg])) { " + part + "[reg] = v; " + idxName + "[reg] = vi; }");
    } else {
      line(part + "[reg] = " + combine(part + "[reg]", "buf[" + slot("w") + "]") + ";");
    }
    --indent_;
    line("}");
    --indent_;
    line("}");
    --indent_;
    line("}");
    smemBusy_ = true;
  }
  // The result: the partials are the result registers (converted back for half/bfloat16).
  const std::string res = arg ? idxName : part;
  const ElemType re = r->type.elem;
  const ElemType have = arg ? ElemType::of(Scalar::I32) : ce;
  if (!r->type.isTile()) {
    line(constDecl(re, n) + " = " + convertExpr(have, re, res + "[0]") + ";");
    return;
  }
  if (arg || !(have == re)) {
    // Name the result array after the value; partials keep the _part suffix.
    const std::string out = n + "_v";
    line(type(re) + " " + out + "[" + std::to_string(rn) + "];");
    loop(rn, out + "[reg] = " + convertExpr(have, re, res + "[reg]") + ";");
    View w;
    w.base = out;
    w.strides = geo(r).rstride;
    views_[r->id] = w;
    return;
  }
  View w;
  w.base = part;
  w.strides = geo(r).rstride;
  views_[r->id] = w;
}

// Writes tile v (rank 2) to shared memory at `buf`, row-major with tile axis rowAxis as rows
// and `pitch` bytes per row. A thread's consecutive elements along the row go out as one
// store of up to 16 bytes; replicated copies are written once.
void KernelPrinter::stage(const Value* v, const std::string& buf, int rowAxis, int pitch, const std::string& in) {
  const Geo g = geo(v);
  const int colAxis = 1 - rowAxis;
  const ElemType e = v->type.elem;
  const int eb = e.bytes();
  const auto& cx = g.ax[static_cast<std::size_t>(colAxis)];
  int vec = 1;
  while (vec * 2 <= cx.spt && vec * 2 * eb <= 16 && cx.spt % (vec * 2) == 0) vec *= 2;
  const std::string own = owner(g);
  const std::string at = buf + " + (" + coord(g, rowAxis, "reg") + ") * " + std::to_string(pitch) + " + (" +
                         coord(g, colAxis, "reg") + ") * " + std::to_string(eb);
  const std::string et = type(e);
  if (vec == 1) {
    loop(g.n, (own.empty() ? "" : "if (" + own + ") ") + "*reinterpret_cast<" + et + "*>(" + at + ") = " + in + el(v, "reg") + ");");
    return;
  }
  const int rs = g.rstride[static_cast<std::size_t>(colAxis)];
  const std::string d = digit(g, colAxis, "reg");
  const std::string word = wordType(vec * eb);
  std::string cond = "(" + d + ") % " + std::to_string(vec) + " == 0";
  if (!own.empty()) cond += " && " + own;
  line("// " + std::to_string(vec) + " elements (" + std::to_string(vec * eb) + " bytes) per shared-memory store");
  line("#pragma unroll");
  line("for (int reg = 0; reg < " + std::to_string(g.n) + "; ++reg) {");
  ++indent_;
  line("if (" + cond + ") {");
  ++indent_;
  line("__align__(16) " + et + " part[" + std::to_string(vec) + "];");
  for (int j = 0; j < vec; ++j)
    line("part[" + std::to_string(j) + "] = " + in + el(v, j == 0 ? "reg" : "(reg + " + std::to_string(j * rs) + ")") + ");");
  line("*reinterpret_cast<" + word + "*>(" + at + ") = *reinterpret_cast<const " + word + "*>(part);");
  --indent_;
  line("}");
  --indent_;
  line("}");
}

// Whether dot `d` reads its B operand from shared memory transposed ([N][K]) rather than as
// [K][N]: always for tf32 and int8 (their fragments need k-consecutive elements and ldmatrix
// cannot transpose them); for 16-bit types when b's registers run along K (they are written as
// they lie, and ldmatrix.trans reads [K][N]); never for IEEE fp32, read element by element.
bool KernelPrinter::readsBTransposed(const Op& d) {
  const Value* b = d.operands[1];
  switch (b->type.elem.kind) {
    case Scalar::I8: return true;
    case Scalar::F32: return d.i != 0;
    case Scalar::F16:
    case Scalar::BF16: {
      const Geo g = geo(b);
      return g.l->order.front() == g.l->dims[0];
    }
    default: return false;
  }
}

// dot: both operands go to shared memory (A as [M][K]; B as [K][N] or, transposed, [N][K]),
// rows padded to an odd number of 16-byte units so that ldmatrix's eight row addresses hit
// distinct banks. Each warp then loads tensor-core fragments with ldmatrix and accumulates
// its m16n8 tiles of the result (mmaLayout) with mma.sync; fp32 without tf32 has no tensor
// core path and multiplies and adds in IEEE order, like the host twin.
void KernelPrinter::dot(const Op& o) {
  const Value* a = o.operands[0];
  const Value* b = o.operands[1];
  const Value* acc = o.operands[2];
  const Value* r = o.result();
  const Geo gr = geo(r);
  if (!isMmaLayout(*gr.l)) internalError("dot result outside an mma layout in " + k_.name);
  const int M = a->type.shape[0], K = a->type.shape[1], N = b->type.shape[1];
  const ElemType e = a->type.elem;
  enum class Path { F16, BF16, TF32, S8, Fma };
  Path path;
  switch (e.kind) {
    case Scalar::F16: path = Path::F16; break;
    case Scalar::BF16: path = Path::BF16; break;
    case Scalar::I8: path = Path::S8; break;
    case Scalar::F32: path = o.i ? Path::TF32 : Path::Fma; break;
    default: unsupported(o, "dot() of " + toString(a->type) + " operands");
  }
  const int eb = e.bytes();
  const bool bT = readsBTransposed(o);
  auto pitch = [&](int elems) { return ldmatrixPitch(elems * eb); };
  const auto ringA = pipes_.find(a);
  const auto ringB = !bT ? pipes_.find(b) : b->def && b->def->kind == OpKind::Trans ? pipes_.find(b->def->operands[0]) : pipes_.end();
  const bool inRingA = ringA != pipes_.end(), inRingB = ringB != pipes_.end();
  const int pitchA = pitch(K), pitchB = bT ? pitch(K) : pitch(N);
  const int bytesA = inRingA ? 0 : M * pitchA, bytesB = inRingB ? 0 : (bT ? N : K) * pitchB;
  const std::string rn = array(r, "dot accumulator");
  loop(gr.n, rn + "[reg] = " + el(acc, "reg") + ";");
  const std::string what = "dot operands of " + names_.of(r) + ": A [" + std::to_string(M) + "][" + std::to_string(K) +
                           "] (" + std::to_string(pitchA) + "-byte rows), B " +
                           (bT ? "transposed [" + std::to_string(N) + "][" + std::to_string(K) + "]"
                               : "[" + std::to_string(K) + "][" + std::to_string(N) + "]") +
                           " (" + std::to_string(pitchB) + "-byte rows)";
  const std::string base = bytesA + bytesB ? smemFor(bytesA + bytesB, what) : std::string("smem");
  line("{");
  ++indent_;
  auto ring = [&](const Pipe& p) {
    return "smem + " + std::to_string(p.offset) + (p.hoisted ? "" : " + " + pipeRead_ + " * " + std::to_string(p.slotBytes));
  };
  line("// " + what + (inRingA || inRingB ? std::string("; ") + (inRingA ? "A" : "") + (inRingA && inRingB ? " and " : "") +
                                                (inRingB ? "B" : "") + " already in the pipeline's shared memory"
                                          : ""));
  line("unsigned char* const dot_a = " + (inRingA ? ring(ringA->second) : base) + ";");
  line("unsigned char* const dot_b = " + (inRingB ? ring(ringB->second) : base + " + " + std::to_string(bytesA)) + ";");
  const std::string in = path == Path::TF32 ? "tilecc::to_tf32(" : "(";
  if (!inRingA) stage(a, "dot_a", 0, pitchA, in);
  if (!inRingB) stage(b, "dot_b", bT ? 1 : 0, pitchB, in);
  // A staged from an accumulator layout with every warp along M is read by the warp that
  // wrote it (attention's P): a warp barrier suffices.
  const Geo ga = geo(a);
  const std::vector<int> alongM = {k_.numWarps, 1};
  const bool warpPrivate = !inRingA && inRingB && isMmaLayout(*ga.l) && ga.l->wpc == alongM && gr.l->wpc == alongM &&
                           path != Path::Fma;
  if (warpPrivate)
    line("__syncwarp();  // each warp reads only the rows of A it wrote");
  else if (!inRingA || !inRingB)
    line("__syncthreads();");
  const int regs1 = gr.ax[1].regs;
  if (path == Path::Fma) {
    // IEEE: multiply, then add, k ascending, as the host twin does.
    const std::string aAt = "*reinterpret_cast<const float*>(dot_a + (" + coord(gr, 0, "reg") + ") * " + std::to_string(pitchA) + " + k * 4)";
    const std::string bAt = "*reinterpret_cast<const float*>(dot_b + k * " + std::to_string(pitchB) + " + (" + coord(gr, 1, "reg") + ") * 4)";
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(gr.n) + "; ++reg) {");
    ++indent_;
    line("float s = " + rn + "[reg];");
    line("for (int k = 0; k < " + std::to_string(K) + "; ++k) s = __fadd_rn(s, __fmul_rn(" + aAt + ", " + bAt + "));");
    line(rn + "[reg] = s;");
    --indent_;
    line("}");
  } else {
    const Layout& l = *gr.l;
    const int wm = l.wpc[0], wn = l.wpc[1];
    const std::string ln = lane();
    const std::string li = "L" + std::to_string(r->layout);
    const std::string wmName = wm == 1 ? "0" : declare(li + "_wm", "const int " + li + "_wm = " + bits(warp(), wn, wm, k_.numWarps) + ";  // warp row of L" + std::to_string(r->layout));
    const std::string wnName = wn == 1 ? "0" : declare(li + "_wn", "const int " + li + "_wn = " + bits(warp(), 1, wn, k_.numWarps) + ";  // warp column of L" + std::to_string(r->layout));
    const bool s8 = path == Path::S8;
    const int kBytes = s8 ? 16 : 32;           // one mma's k extent in bytes
    const int kSteps = K * eb / kBytes;
    const int aRegs = s8 ? 2 : 4, bRegs = s8 ? 1 : 2;
    const std::string mma = path == Path::F16 ? "mma_f16" : path == Path::BF16 ? "mma_bf16" : path == Path::TF32 ? "mma_tf32" : "mma_s8";
    line("// " + std::to_string(regs1 / 2 * gr.ax[0].regs / 2) + " m16n8 tiles per warp, " + std::to_string(kSteps) + " k steps of " +
         std::to_string(kBytes / eb) + " (" + mma + ")");
    const int mTiles = gr.ax[0].regs / 2, nTiles = regs1 / 2;
    // Per k step: this warp's A fragments (one per m16 row pair) and B fragments (one per n8
    // column group), then every m16n8 product.
    line("#pragma unroll");
    line("for (int ks = 0; ks < " + std::to_string(kSteps) + "; ++ks) {");
    ++indent_;
    line("unsigned fa[" + std::to_string(mTiles) + "][" + std::to_string(aRegs) + "], fb[" + std::to_string(nTiles) + "][" +
         std::to_string(bRegs) + "];");
    // Lane l points at row l % 8 of matrix l / 8: matrices alternate the two 8-row groups of
    // an m16 tile, then step 16 bytes along k.
    line("#pragma unroll");
    line("for (int mi = 0; mi < " + std::to_string(mTiles) + "; ++mi)");
    line("  tilecc::ldmatrix_x" + std::to_string(aRegs) + "(fa[mi], dot_a + (8 * (" + wmName + " + " + std::to_string(wm) +
         " * (2 * mi + ((" + ln + " >> 3) & 1))) + (" + ln + " & 7)) * " + std::to_string(pitchA) + " + ks * " + std::to_string(kBytes) +
         (s8 ? "" : " + (" + ln + " >> 4) * 16") + ");");
    // The row this lane points at for the n8 column group `group` (an expression): B as
    // [N][K] (lanes step rows of n, then 16 bytes along k) or [K][N] (lanes step k rows).
    auto bAddress = [&](const std::string& group) {
      const std::string n = "((8 * (" + wnName + " + " + std::to_string(wn) + " * " + group + ")) & " + std::to_string(N - 1) + ")";
      if (bT)
        return "dot_b + (" + n + " + (" + ln + " & 7)) * " + std::to_string(pitchB) + " + ks * " + std::to_string(kBytes) +
               (s8 ? "" : " + ((" + ln + " >> 3) & 1) * 16");
      return "dot_b + (ks * 16 + (" + ln + " & 15)) * " + std::to_string(pitchB) + " + " + n + " * 2";
    };
    line("#pragma unroll");
    if (!s8 && nTiles % 2 == 0) {
      // Two n8 column groups per ldmatrix.x4: lanes 16-31 point at the second group.
      line("for (int ni = 0; ni < " + std::to_string(nTiles) + "; ni += 2) {");
      line("  unsigned pair[4];");
      line(std::string("  tilecc::ldmatrix_x4") + (bT ? "" : "_trans") + "(pair, " + bAddress("(ni + (" + ln + " >> 4))") + ");");
      line("  fb[ni][0] = pair[0];");
      line("  fb[ni][1] = pair[1];");
      line("  fb[ni + 1][0] = pair[2];");
      line("  fb[ni + 1][1] = pair[3];");
      line("}");
    } else {
      line("for (int ni = 0; ni < " + std::to_string(nTiles) + "; ++ni)");
      line("  tilecc::ldmatrix_x" + std::to_string(bRegs) + (bT ? "" : "_trans") + "(fb[ni], " + bAddress("ni") + ");");
    }
    line("#pragma unroll");
    line("for (int mi = 0; mi < " + std::to_string(mTiles) + "; ++mi) {");
    line("  #pragma unroll");
    line("  for (int ni = 0; ni < " + std::to_string(nTiles) + "; ++ni)");
    const std::string c0 = rn + "[(2 * mi) * " + std::to_string(regs1) + " + 2 * ni]";
    const std::string c1 = rn + "[(2 * mi) * " + std::to_string(regs1) + " + 2 * ni + 1]";
    const std::string c2 = rn + "[(2 * mi + 1) * " + std::to_string(regs1) + " + 2 * ni]";
    const std::string c3 = rn + "[(2 * mi + 1) * " + std::to_string(regs1) + " + 2 * ni + 1]";
    line("    tilecc::" + mma + "(" + c0 + ", " + c1 + ", " + c2 + ", " + c3 + ", fa[mi], fb[ni]);");
    line("}");
    --indent_;
    line("}");
  }
  --indent_;
  line("}");
  // Its staging area is read until here; the rings and operands staged once are rewritten
  // only after the loop's own barrier.
  if (bytesA + bytesB > 0) smemBusy_ = true;
}

void KernelPrinter::assignCarried(const std::vector<const Value*>& targets, const std::vector<const Value*>& values) {
  // Copies through temporaries when one carried value feeds another (a swap).
  std::set<std::string> targetNames;
  for (const Value* t : targets) targetNames.insert(names_.of(t));
  bool hazard = false;
  for (std::size_t j = 0; j < values.size(); ++j) {
    const Value* v = values[j];
    if (v == targets[j]) continue;
    if (v->type.isTile()) {
      const View& w = view(v);
      if (targetNames.count(w.base) && w.base != names_.of(targets[j])) hazard = true;
    } else if (targetNames.count(scalar(v)) && scalar(v) != names_.of(targets[j])) {
      hazard = true;
    }
  }
  std::vector<std::string> src(values.size());
  for (std::size_t j = 0; j < values.size(); ++j) {
    const Value* v = values[j];
    if (v == targets[j]) continue;
    if (!hazard) continue;
    const std::string tmp = names_.of(targets[j]) + "_next";
    if (v->type.isTile()) {
      const Geo g = geo(targets[j]);
      line(type(v->type.elem) + " " + tmp + "[" + std::to_string(g.n) + "];");
      loop(g.n, tmp + "[reg] = " + el(v, "reg") + ";");
      src[j] = tmp + "[reg]";
    } else {
      line(constDecl(v->type.elem, tmp) + " = " + scalar(v) + ";");
      src[j] = tmp;
    }
  }
  for (std::size_t j = 0; j < values.size(); ++j) {
    const Value* v = values[j];
    if (v == targets[j]) continue;
    const std::string t = names_.of(targets[j]);
    if (v->type.isTile()) {
      const std::string s = hazard ? src[j] : el(v, "reg");
      if (s == t + "[reg]") continue;
      loop(geo(targets[j]).n, t + "[reg] = " + s + ";");
    } else {
      const std::string s = hazard ? src[j] : scalar(v);
      if (s != t) line(t + " = " + s + ";");
    }
  }
}

void KernelPrinter::forOp(const Op& o) {
  const Block& body = *o.regions[0];
  const Value* iv = body.args[0];
  std::vector<const Value*> carried(body.args.begin() + 1, body.args.end());
  // Carried values live in variables declared before the loop; results are those variables.
  for (std::size_t j = 0; j < carried.size(); ++j) {
    const Value* a = carried[j];
    const Value* init = o.operands[j + 3];
    if (a->type.isTile()) {
      const Geo g = geo(a);
      const std::string n = array(a, "carried");
      loop(g.n, n + "[reg] = " + el(init, "reg") + ";");
    } else {
      line(type(a->type.elem) + " " + names_.of(a) + " = " + scalar(init) + ";");
    }
    names_.alias(o.results[j], a);
    if (a->type.isTile()) views_[o.results[j]->id] = views_.at(a->id);
  }
  static const char* cmp[] = {"<", "<=", ">", ">=", "!="};
  const std::string ivn = names_.of(iv);
  const std::string step = scalar(o.operands[2]);
  // Software pipeline: the loads that feed dot are copied into rings of shared memory
  // num_stages - 1 iterations ahead, so that memory and tensor cores overlap.
  const std::vector<Pipe> pipes = findPipes(o);
  const int stages = k_.numStages;
  const int savedBase = smemBase_;
  const std::string savedRead = pipeRead_;
  std::string pipeWrite;
  const std::vector<Pipe> placed = pipes.empty() ? std::vector<Pipe>{} : startPipeline(o, pipes, pipeWrite);
  std::string inc = step == "1" ? "++" + ivn : step == "-1" ? "--" + ivn : ivn + " += " + step;
  line("for (" + type(iv->type.elem) + " " + ivn + " = " + scalar(o.operands[0]) + "; " + ivn + " " + cmp[o.sub] + " " +
       scalar(o.operands[1]) + "; " + inc + ") {");
  ++indent_;
  const bool smem = containsSmem(body);
  if (smem) smemBusy_ = true;  // the previous iteration may still be reading
  if (!placed.empty()) {
    line("tilecc::cp_async_wait<" + std::to_string(stages - 2) + ">();  // this iteration's copies have landed");
    line("__syncthreads();  // ... for every thread, and the slot written next is no longer read");
    smemBusy_ = false;
    issueCopies(o, placed, "(" + ivn + " + " + std::to_string(stages - 1) + " * " + step + ")", stages - 1, pipeWrite, true);
    line("tilecc::cp_async_commit();");
  }
  block(body);
  mark(o.loc);  // the back edge belongs to the loop statement
  if (!body.ops.empty() && body.ops.back()->kind == OpKind::Yield) {
    std::vector<const Value*> vals(body.ops.back()->operands.begin(), body.ops.back()->operands.end());
    assignCarried(carried, vals);
  }
  if (!placed.empty()) {
    line(pipeRead_ + " = " + pipeRead_ + " == " + std::to_string(stages - 1) + " ? 0 : " + pipeRead_ + " + 1;");
    line(pipeWrite + " = " + pipeWrite + " == " + std::to_string(stages - 1) + " ? 0 : " + pipeWrite + " + 1;");
  }
  --indent_;
  line("}");
  if (!pipes.empty()) {
    if (!placed.empty()) line("tilecc::cp_async_wait<0>();  // copies past the last iteration (zero-filled) have landed");
    for (const Pipe& p : pipes) pipes_.erase(p.value);
    smemBase_ = savedBase;
    pipeRead_ = savedRead;
    smemBusy_ = true;
  }
  if (smem) smemBusy_ = true;
}

// Reserves the rings (and the shared memory of operands staged once) of a pipelined loop,
// stages the loop-invariant operands, and issues the copies of the first num_stages - 1
// iterations. Returns the pipes that copy every iteration, placed in shared memory.
std::vector<KernelPrinter::Pipe> KernelPrinter::startPipeline(const Op& o, const std::vector<Pipe>& pipes,
                                                              std::string& pipeWrite) {
  const Block& body = *o.regions[0];
  const int stages = k_.numStages;
  const std::string step = scalar(o.operands[2]);
  int ringBytes = 0;
  for (const Pipe& p : pipes) ringBytes += (p.hoisted ? 1 : stages) * p.slotBytes;
  std::string plan = "pipeline of " + std::to_string(stages) + " stages for the loop at line " + std::to_string(o.loc.line) + ":";
  for (const Pipe& p : pipes)
    plan += " " + names_.of(p.value) + (p.hoisted ? " (staged once)" : "") + " [" + std::to_string(p.value->type.shape[0]) +
            "][" + std::to_string(p.value->type.shape[1]) + "] (" + std::to_string(p.pitch) + "-byte rows)";
  smemFor(ringBytes, plan);
  int offset = smemBase_;
  for (Pipe p : pipes) {
    p.offset = offset;
    offset += (p.hoisted ? 1 : stages) * p.slotBytes;
    pipes_[p.value] = p;
  }
  smemBase_ = offset;
  std::vector<Pipe> placed;
  for (const Pipe& p : pipes)
    if (!p.hoisted) placed.push_back(pipes_.at(p.value));
  // Masks and pointers computed only for the pipelined loads (and trans views of them) are
  // computed with the copies instead.
  std::set<const Op*> dead;
  for (const Pipe& p : placed) {
    dead.insert(p.load);
    walk(const_cast<Block&>(body), [&](Op& u) {
      if (u.kind == OpKind::Trans && u.operands[0] == p.value) dead.insert(&u);
    });
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = body.ops.rbegin(); it != body.ops.rend(); ++it) {
      const Op* c = it->get();
      if (dead.count(c) || c->results.empty() || !c->regions.empty() || c->kind == OpKind::Load ||
          c->kind == OpKind::AtomicAdd || c->kind == OpKind::Dot)
        continue;
      bool onlyDead = true;
      walk(const_cast<Block&>(body), [&](Op& u) {
        for (const Value* x : u.operands)
          for (const Value* r : c->results)
            if (x == r && !dead.count(&u)) onlyDead = false;
      });
      if (onlyDead) {
        dead.insert(c);
        changed = true;
      }
    }
  }
  for (const Op* c : dead)
    if (c->kind != OpKind::Load) skipped_.insert(c);
  line("// " + plan + ", " + std::to_string(ringBytes) + " bytes");
  for (const Pipe& p : pipes)
    if (p.hoisted) stage(p.value, "(smem + " + std::to_string(pipes_.at(p.value).offset) + ")", 0, p.pitch, "(");
  if (placed.empty()) {
    line("__syncthreads();");
    return placed;
  }
  pipeRead_ = names_.fresh("pipe_read");
  pipeWrite = names_.fresh("pipe_write");
  line("int " + pipeRead_ + " = 0, " + pipeWrite + " = " + std::to_string(stages - 1) + ";  // ring slots");
  for (int s = 0; s + 1 < stages; ++s) {
    issueCopies(o, placed, "(" + scalar(o.operands[0]) + " + " + std::to_string(s) + " * " + step + ")", s, std::to_string(s), false);
    line("tilecc::cp_async_commit();");
  }
  return placed;
}

// Whether block b is `body` or nested inside it.
static bool within(const Block* b, const Block& body) {
  for (; b; b = b->parent ? b->parent->parent : nullptr)
    if (b == &body) return true;
  return false;
}

// The ops of `body` that v depends on, in body order, when v can be computed anywhere from the
// induction variable, constants and values defined before the loop with pure ops; false if not.
bool KernelPrinter::loopInvariantChain(const Block& body, const Value* v, const Value* iv, std::vector<const Op*>& chain) {
  std::set<const Op*> seen;
  bool ok = true;
  std::function<void(const Value*)> visit = [&](const Value* x) {
    if (!ok || x == iv) return;
    const Op* d = x->def;
    if (!d) {  // a block argument: of this loop's body (carried) or of an enclosing block
      if (x->owner == &body) ok = false;
      return;
    }
    if (d->parent != &body) {  // defined before the loop, or nested inside the body
      if (within(d->parent, body)) ok = false;
      return;
    }
    switch (d->kind) {
      case OpKind::Constant: case OpKind::Splat: case OpKind::Broadcast: case OpKind::ExpandDims: case OpKind::Arange:
      case OpKind::Binary: case OpKind::Unary: case OpKind::Convert: case OpKind::AddPtr: case OpKind::Select:
      case OpKind::Hint:
        break;
      default: ok = false; return;
    }
    if (!seen.insert(d).second) return;
    for (const Value* y : d->operands) visit(y);
  };
  visit(v);
  if (!ok) return false;
  for (const auto& op : body.ops)
    if (seen.count(op.get())) chain.push_back(op.get());
  return true;
}

std::vector<KernelPrinter::Pipe> KernelPrinter::findPipes(const Op& loop) {
  std::vector<Pipe> pipes;
  const Block& body = *loop.regions[0];
  if (k_.numStages < 2 || loop.sub != 0) return pipes;  // for (i = lo; i < hi; i += step)
  const Value* iv = body.args[0];
  const Op* yield = !body.ops.empty() && body.ops.back()->kind == OpKind::Yield ? body.ops.back().get() : nullptr;
  if (!yield) return pipes;
  for (const auto& up : body.ops) {
    const Op& ld = *up;
    if (ld.kind != OpKind::Load || !ld.operands[0]->type.isTile() || ld.result()->type.rank() != 2) continue;
    const Value* r = ld.result();
    // Used only by dots of this body, as an operand they read as [rows][cols] from shared
    // memory: A, B when it is read as [K][N], or trans(load) as a B read transposed ([N][K]).
    if (!readsAsStaged(body, r)) continue;
    Pipe p;
    p.load = &ld;
    p.value = r;
    p.carried = -1;
    std::vector<const Op*> chain;
    if (loopInvariantChain(body, ld.operands[0], iv, chain)) {
      // Pointers computed from the induction variable and invariants: recomputed ahead.
    } else {
      // Or a carried tile advanced by a loop-invariant step.
      for (std::size_t j = 1; j < body.args.size(); ++j)
        if (body.args[j] == ld.operands[0]) p.carried = static_cast<int>(j) - 1;
      if (p.carried < 0) continue;
      const Value* next = yield->operands[static_cast<std::size_t>(p.carried)];
      if (!next->def || next->def->kind != OpKind::AddPtr || next->def->operands[0] != ld.operands[0]) continue;
      p.inc = next->def->operands[1];
      if (!loopInvariantChain(body, p.inc, nullptr, chain)) continue;
      // The step must not depend on the induction variable either.
      bool usesIv = p.inc == iv;
      for (const Op* c : chain)
        for (const Value* x : c->operands) usesIv |= x == iv;
      if (usesIv) continue;
    }
    // Mask from the induction variable and invariants; other values zero (zero-filled copies).
    if (ld.operands.size() >= 2 && !loopInvariantChain(body, ld.operands[1], iv, chain)) continue;
    if (ld.operands.size() >= 3) {
      const Value* other = ld.operands[2];
      while (other->def && (other->def->kind == OpKind::Splat || other->def->kind == OpKind::Broadcast ||
                            other->def->kind == OpKind::Convert))
        other = other->def->operands[0];
      if (!other->def || other->def->kind != OpKind::Constant || other->def->i != 0 || other->def->f != 0) continue;
    }
    // Whole 4-, 8- or 16-byte copies along the rows.
    const VecPlan v = vecPlan(ld, geo(ld.operands[0]));
    const int eb = r->type.elem.bytes();
    if (!v.ok || v.axis != 1 || v.vec * eb < 4) continue;
    p.vec = v.vec;
    p.pitch = ldmatrixPitch(r->type.shape[1] * eb);
    p.slotBytes = r->type.shape[0] * p.pitch;
    pipes.push_back(p);
  }
  // Operands defined before the loop (attention's queries): staged once, read every iteration.
  std::set<const Value*> seen;
  for (const auto& up : body.ops) {
    if (up->kind != OpKind::Dot) continue;
    for (int i = 0; i < 2; ++i) {
      const Value* x = up->operands[static_cast<std::size_t>(i)];
      const bool viaTrans = i == 1 && x->def && x->def->kind == OpKind::Trans;
      const Value* src = viaTrans ? x->def->operands[0] : x;
      if (seen.count(src) || src->type.rank() != 2) continue;
      if (within(src->def ? src->def->parent : src->owner, body) || !readsAsStaged(body, src)) continue;
      seen.insert(src);
      Pipe p;
      p.hoisted = true;
      p.value = src;
      p.pitch = ldmatrixPitch(src->type.shape[1] * src->type.elem.bytes());
      p.slotBytes = src->type.shape[0] * p.pitch;
      pipes.push_back(p);
    }
  }
  return pipes;
}

// Whether every use of r in `body` is a dot of the body reading it as staged [rows][cols]:
// as A, as B read [K][N], or through trans() as B read transposed. Tensor-core paths only
// (tf32 rounds on the way in).
bool KernelPrinter::readsAsStaged(const Block& body, const Value* r) {
  bool ok = true, used = false;
  walk(const_cast<Block&>(body), [&](Op& u) {
    for (std::size_t i = 0; i < u.operands.size(); ++i) {
      if (u.operands[i] != r) continue;
      used = true;
      if (u.kind == OpKind::Trans && u.parent == &body) {
        // trans(r) feeding only B operands read transposed: r as it lies is B's [N][K].
        const Value* t = u.result();
        walk(const_cast<Block&>(body), [&](Op& w) {
          for (std::size_t j = 0; j < w.operands.size(); ++j)
            if (w.operands[j] == t && !(w.kind == OpKind::Dot && j == 1 && w.parent == &body && !w.i && readsBTransposed(w)))
              ok = false;
        });
        continue;
      }
      if (u.kind != OpKind::Dot || i > 1 || u.parent != &body || u.i || (i == 1 && readsBTransposed(u))) ok = false;
    }
  });
  return ok && used;
}

// Copies for iteration `iter` (an expression; `ahead` iterations after the carried pointers'
// current values) into ring slot `slot`, predicated on the iteration existing and on the mask.
void KernelPrinter::issueCopies(const Op& loop, const std::vector<Pipe>& pipes, const std::string& iter, int ahead,
                                const std::string& slot, bool inLoop) {
  const Block& body = *loop.regions[0];
  const Value* iv = body.args[0];
  line("{  // copies for iteration " + iter);
  ++indent_;
  const std::string it = names_.fresh("k_ahead");
  line("const " + type(iv->type.elem) + " " + it + " = " + iter + ";");
  subst_[iv] = it;
  // The steps and masks of every pipelined load, computed once for this iteration, in body order.
  std::vector<const Op*> chain;
  for (const Pipe& p : pipes) {
    if (p.carried < 0) loopInvariantChain(body, p.load->operands[0], iv, chain);
    else if (ahead > 0) loopInvariantChain(body, p.inc, nullptr, chain);
    if (p.load->operands.size() >= 2) loopInvariantChain(body, p.load->operands[1], iv, chain);
  }
  std::map<const Op*, std::size_t> position;
  for (std::size_t i = 0; i < body.ops.size(); ++i) position[body.ops[i].get()] = i;
  std::sort(chain.begin(), chain.end(), [&](const Op* x, const Op* y) { return position.at(x) < position.at(y); });
  chain.erase(std::unique(chain.begin(), chain.end()), chain.end());
  for (const Op* c : chain) op(*c);
  for (const Pipe& p : pipes) {
    const Op& ld = *p.load;
    // Pointers of this iteration: the current ones (before the loop, the initial ones) plus
    // `ahead` steps.
    const Value* cur = p.carried < 0 || inLoop ? ld.operands[0] : loop.operands[3 + static_cast<std::size_t>(p.carried)];
    const Geo g = geo(ld.operands[0]);
    const int eb = ld.result()->type.elem.bytes();
    const std::string own = owner(g);
    std::string cond = "(" + digit(g, 1, "reg") + ") % " + std::to_string(p.vec) + " == 0";
    if (!own.empty()) cond += " && " + own;
    std::string pred = it + " < " + scalar(loop.operands[1]);
    if (ld.operands.size() >= 2) pred += " && " + el(ld.operands[1], "reg");
    const std::string src = el(cur, "reg") + (ahead == 0 || p.carried < 0 ? "" : " + " + std::to_string(ahead) + " * " + el(p.inc, "reg"));
    const std::string dst = "smem + " + std::to_string(p.offset) + " + " + slot + " * " + std::to_string(p.slotBytes) + " + (" +
                            coord(g, 0, "reg") + ") * " + std::to_string(p.pitch) + " + (" + coord(g, 1, "reg") + ") * " +
                            std::to_string(eb);
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(g.n) + "; ++reg)");
    line("  if (" + cond + ") tilecc::cp_async" + std::to_string(p.vec * eb) + "(" + dst + ", " + src + ", " + pred + ");");
  }
  subst_.erase(iv);
  --indent_;
  line("}");
}

void KernelPrinter::ifOp(const Op& o) {
  std::vector<const Value*> results(o.results.begin(), o.results.end());
  for (const Value* r : results) {
    if (r->type.isTile())
      array(r, "if result");
    else
      line(type(r->type.elem) + " " + names_.of(r) + ";");
  }
  line("if (" + scalar(o.operands[0]) + ") {");
  const bool busyBefore = smemBusy_;
  bool busyAfter = busyBefore;
  for (int b = 0; b < 2; ++b) {
    const Block& blk = *o.regions[static_cast<std::size_t>(b)];
    if (b == 1) {
      if (blk.ops.size() == 1 && blk.ops.back()->kind == OpKind::Yield && results.empty()) break;
      mark(o.loc);
      line("} else {");
    }
    smemBusy_ = busyBefore;
    ++indent_;
    block(blk);
    if (!blk.ops.empty() && blk.ops.back()->kind == OpKind::Yield) {
      std::vector<const Value*> vals(blk.ops.back()->operands.begin(), blk.ops.back()->operands.end());
      assignCarried(results, vals);
    }
    --indent_;
    busyAfter = busyAfter || smemBusy_;
  }
  line("}");
  smemBusy_ = busyAfter;
}

bool KernelPrinter::run(CudaKernel& out) {
  const int threads = k_.numWarps * 32;
  std::string params;
  for (std::size_t i = 0; i < k_.params.size(); ++i) {
    const Value* p = k_.params[i];
    params += (i ? ", " : "") + type(p->type.elem) + " " + names_.of(p);
  }
  walk(const_cast<Block&>(*k_.body), [&](Op& o) {
    for (const Value* v : o.operands) used_.insert(v);
  });
  try {
    block(*k_.body);
  } catch (const Unsupported&) {
    return false;
  }

  std::ostringstream s;
  s << "// ---- " << k_.sourceName << " -> " << k_.name << " ----\n";
  s << "// " << k_.numWarps << " warps (" << threads << " threads) per program.\n";
  s << "// Layouts (elements per thread x threads per warp x warps, fastest dimension first):\n";
  for (std::size_t i = 0; i < L_.size(); ++i) s << "//   L" << i << " = " << describe(L_[i]) << "\n";
  if (accesses_.empty()) s << "// Global accesses: none of tiles.\n";
  else s << "// Global accesses (per thread):\n";
  for (const auto& a : accesses_) s << "//   " << a << "\n";
  if (!k_.assumed.empty()) {
    s << "// Specialised variant: the launcher picks it when " << variantConditionText() << ".\n";
  }
  if (smemBytes_ == 0) {
    s << "// Shared memory: none.\n";
  } else {
    s << "// Shared memory: " << smemBytes_ << " bytes, reused by:\n";
    std::set<std::string> seen;
    for (const auto& p : smemPlan_)
      if (seen.insert(p).second) s << "//   " << p << "\n";
  }
  // Above 48 KB a kernel needs dynamic shared memory, which its launcher opts into.
  const bool dynamicSmem = smemBytes_ > kStaticSmemLimit;
  if (smemBytes_ > kMaxSmem) {
    std::fprintf(stderr, "%s:%u:%u: error: kernel %s needs %d bytes of shared memory; the limit is %d (use smaller tiles)\n",
                 k_.loc.file.c_str(), k_.loc.line, k_.loc.col, k_.name.c_str(), smemBytes_, kMaxSmem);
    return false;
  }
  s << "extern \"C\" __global__ void __launch_bounds__(" << threads << ") " << k_.name << "(" << params << ") {\n";
  if (dynamicSmem)
    s << "  extern __shared__ __align__(16) unsigned char smem[];  // " << smemBytes_ << " bytes, set by the launcher\n";
  else if (smemBytes_ > 0)
    s << "  __shared__ __align__(16) unsigned char smem[" << smemBytes_ << "];\n";
  for (const auto& d : pre_) s << "  " << d << "\n";
  s << body_ << kEndMark << "\n}\n";
  out.name = k_.name;
  out.sourceName = k_.sourceName;
  out.kernelText = s.str();

  std::ostringstream rep;
  rep << "kernel " << k_.name << " (" << k_.sourceName << "), " << k_.numWarps << " warps\n";
  if (!k_.assumed.empty()) rep << "  variant: when " << variantConditionText() << "\n";
  rep << "  layouts:\n";
  for (std::size_t i = 0; i < L_.size(); ++i) rep << "    L" << i << " = " << describe(L_[i]) << "\n";
  rep << "  accesses:\n";
  for (const auto& a : accesses_) rep << "    " << a << "\n";
  rep << "  tiles:\n";
  walk(const_cast<Block&>(*k_.body), [&](Op& o) {
    for (auto& reg : o.regions)
      for (const Value* a : reg->args)
        if (a->type.isTile()) rep << "    " << names_.of(a) << ": " << toString(a->type) << " L" << a->layout << "\n";
    for (const Value* r : o.results)
      if (r->type.isTile() && !r->name.empty() && views_.count(r->id))
        rep << "    " << names_.of(r) << ": " << toString(r->type) << " L" << r->layout << "\n";
  });
  rep << "  shared memory: " << smemBytes_ << " bytes\n";
  {
    std::set<std::string> seen;
    for (const auto& p : smemPlan_)
      if (seen.insert(p).second) rep << "    " << p << "\n";
  }
  out.report = rep.str();

  // Launcher: checks the parameters' promises, skips empty grids, launches.
  std::string decl = "cudaError_t launch_" + k_.name + "(dim3 grid, cudaStream_t stream";
  std::string args;
  std::ostringstream lb;
  for (std::size_t i = 0; i < k_.params.size(); ++i) {
    const Value* p = k_.params[i];
    const std::string n = names_.of(p);
    decl += ", " + type(p->type.elem) + " " + n;
    args += (i ? ", " : "") + n;
    const ParamInfo& info = k_.paramInfo[i];
    if (info.aligned)
      lb << "  if (reinterpret_cast<uintptr_t>(" << n << ") % " << info.aligned << " != 0)\n    return tilecc_broken_promise(\""
         << k_.name << "\", \"TILECC_ALIGNED(" << info.aligned << ") " << n << "\", static_cast<long long>(reinterpret_cast<uintptr_t>(" << n
         << ") % " << info.aligned << "));\n";
    if (info.multipleOf)
      lb << "  if (" << n << " % " << info.multipleOf << " != 0)\n    return tilecc_broken_promise(\"" << k_.name
         << "\", \"TILECC_MULTIPLE_OF(" << info.multipleOf << ") " << n << "\", static_cast<long long>(" << n << "));\n";
  }
  decl += ")";
  lb << "  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return cudaSuccess;\n";
  out.launcherChecks = lb.str();
  out.launchLine.clear();
  if (dynamicSmem)
    out.launchLine = "  if (const cudaError_t e = cudaFuncSetAttribute(" + k_.name + ", cudaFuncAttributeMaxDynamicSharedMemorySize, " +
                     std::to_string(smemBytes_) + "); e != cudaSuccess)\n    return e;\n";
  out.launchLine += "  " + k_.name + "<<<grid, " + std::to_string(threads) + ", " + std::to_string(dynamicSmem ? smemBytes_ : 0) +
                    ", stream>>>(" + args + ");\n";
  std::string cond;
  for (const auto& [index, value] : k_.assumed) {
    const Value* p = k_.params[static_cast<std::size_t>(index)];
    const std::string n = names_.of(p);
    cond += (cond.empty() ? "" : " && ") +
            (p->type.elem.isPtr() ? "reinterpret_cast<uintptr_t>(" + n + ") % " + std::to_string(value) + " == 0"
                                  : n + " % " + std::to_string(value) + " == 0");
  }
  out.variantCondition = cond;
  out.launcherDecl = decl;
  out.launcherBody = out.launcherChecks + out.launchLine + "  return cudaGetLastError();\n";
  out.usesHalf = usesHalf_;
  out.usesBf16 = usesBf16_;
  return true;
}

}  // namespace

void addSpecialisedVariant(CudaKernel& general, const CudaKernel& specialised) {
  general.kernelText += "\n" + specialised.kernelText;
  general.report += specialised.report;
  std::string nested;  // the specialised launch, one level deeper
  for (std::size_t start = 0; start < specialised.launchLine.size();) {
    const std::size_t end = specialised.launchLine.find('\n', start);
    nested += "  " + specialised.launchLine.substr(start, end - start + 1);
    start = end + 1;
  }
  general.launcherBody = general.launcherChecks + "  if (" + specialised.variantCondition + ") {\n" + nested +
                         "    return cudaGetLastError();\n  }\n" + general.launchLine + "  return cudaGetLastError();\n";
  general.usesHalf |= specialised.usesHalf;
  general.usesBf16 |= specialised.usesBf16;
}

bool printCudaKernel(const Kernel& k, const std::vector<Layout>& layouts, CudaKernel& out) {
  KernelPrinter p(k, layouts);
  return p.run(out);
}

namespace {

std::string quoted(const std::string& path) {
  std::string q = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

/// Replaces the marks in `text` by #line directives (or drops them). A source line's code spans
/// several lines of the .cu, so every code line under a mark gets the mark's number again
/// (`#line N`; the file is named only when it changes); pragma, comment and blank lines need none.
std::string resolveMarks(const std::string& text, const LineDirectives& ld) {
  std::string out;
  int written = 0;       // lines of `out`
  long reported = -1;    // the line number nvcc gives the next line of `out`
  std::string file;      // the file nvcc attributes it to
  long line = -1;        // the current mark (-1: none)
  std::string markFile;
  const std::size_t markLen = sizeof(kMark) - 1;
  auto directive = [&](long n, const std::string& f) {
    out += "#line " + std::to_string(n) + (f == file ? "" : " " + quoted(f)) + "\n";
    ++written;
    reported = n;
    file = f;
  };
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string l = text.substr(start, end - start);
    start = end + 1;
    if (l.compare(0, markLen, kMark) == 0) {
      const std::size_t space = l.find(' ', markLen);
      line = std::stol(l.substr(markLen, space - markLen));
      markFile = ld.enabled ? ld.sourcePath(l.substr(space + 1)) : std::string();
      continue;
    }
    if (l == kEndMark) {
      // Back to this file's own numbering: the line after the directive is line written + 2.
      if (ld.enabled && line >= 0 && !file.empty()) directive(written + 2, ld.outputName);
      line = -1;
      continue;
    }
    const std::size_t first = l.find_first_not_of(' ');
    const bool code = first != std::string::npos && l.compare(first, 2, "//") != 0 && l.compare(first, 7, "#pragma") != 0;
    if (ld.enabled && line >= 0 && code && (reported != line || file != markFile)) directive(line, markFile);
    out += l + "\n";
    ++written;
    ++reported;
  }
  return out;
}

}  // namespace

std::string printCudaFile(const std::string& source, const std::string& header, const std::vector<CudaKernel>& ks,
                          const LineDirectives& lines) {
  std::ostringstream s;
  s << "// Generated by tilecc " << kVersion << " from " << source << ". Do not edit: edit the kernel source.\n";
  s << "#include \"" << header << "\"\n\n#include <tilecc/cuda/tilecc.cuh>\n\n";
  for (const auto& k : ks) s << k.kernelText << "\n";
  for (const auto& k : ks) s << k.launcherDecl << " {\n" << k.launcherBody << "}\n\n";
  std::string text = resolveMarks(s.str(), lines);
  while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') text.pop_back();
  return text;
}

std::string printHeaderFile(const std::string& source, const std::vector<CudaKernel>& ks) {
  bool half = false, bf16 = false;
  for (const auto& k : ks) {
    half |= k.usesHalf;
    bf16 |= k.usesBf16;
  }
  std::ostringstream s;
  s << "// Generated by tilecc " << kVersion << " from " << source << ". Do not edit: edit the kernel source.\n";
  s << "// Launchers for the kernels of " << source << ". Each takes the grid (programs along x, y, z)\n";
  s << "// and a stream, checks the kernel's parameter promises, and returns the launch status.\n";
  s << "#pragma once\n\n#include <cuda_runtime_api.h>\n#include <stdint.h>\n";
  if (half) s << "#include <cuda_fp16.h>\n";
  if (bf16) s << "#include <cuda_bf16.h>\n";
  s << "\n";
  for (const auto& k : ks) s << "/// " << k.sourceName << "\n" << k.launcherDecl << ";\n\n";
  std::string text = s.str();
  while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') text.pop_back();
  return text;
}

}  // namespace tilecc
