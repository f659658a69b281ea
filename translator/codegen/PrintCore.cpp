// The printer's shared machinery: names, layout index arithmetic, register views, expressions
// with the language's semantics, vector words, shared-memory addresses.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace tilecc::codegen {

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
  s += "f";
  return s[0] == '-' ? "(" + s + ")" : s;
}

}  // namespace tilecc::codegen

namespace tilecc {

const std::set<std::string>& cudaVocabulary() {
  static const std::set<std::string> v = {
      // <cmath> float functions and the CUDA math API the printer calls
      "expf", "exp2f", "logf", "log2f", "sqrtf", "rsqrtf", "sinf", "cosf", "tanf", "tanhf", "erff", "floorf", "ceilf",
      "truncf", "roundf", "rintf", "fabsf", "powf", "fmaxf", "fminf", "fmaf", "isnan", "isinf", "min", "max", "abs",
      "llabs", "labs", "exp", "log", "sqrt", "pow", "fabs", "floor", "ceil",
      // CUDA builtins without a leading underscore
      "atomicAdd", "atomicCAS", "atomicExch", "atomicMax", "atomicMin", "printf", "assert", "cudaGetLastError",
      "cudaFuncSetAttribute", "tilecc_kernels",
      // dynamic shared memory: `extern __shared__` arrays are namespace-scope names (fuzz
      // finding: a kernel named smem)
      "smem", "smem_swizzled"};
  return v;
}

}  // namespace tilecc

namespace tilecc::codegen {

namespace {

// Identifiers of the generated code itself: user names that equal one get a suffix.
std::set<std::string> reservedNames(const Kernel& k) {
  std::set<std::string> r = {
      "lane", "warp", "smem", "smem_swizzled", "reg", "reg2", "part", "word", "other_warp", "scan_lane", "scan_warp", "scan_tot", "scan_ex",
      "scan_wpre", "scan_has_wpre", "scan_total", "scan_carry", "scan_pre", "scan_has", "scan_chunk", "scan_k", "scan_w",
      "scan_val", "scan_buf", "scan_i", "pbuf", "ibuf", "cand", "cand_i", "acc_k", "ks", "mi", "ni",
      "frag_a", "frag_b", "frag_pair", "dot_a", "dot_b", "tilecc", "threadIdx", "blockIdx", "blockDim", "gridDim",
      "warpSize", "int8_t", "uint8_t", "int64_t", "uint64_t", "uintptr_t", "size_t", "__half", "__nv_bfloat16", "dim3",
      "std", "signed", "unsigned", "float", "double", "int", "bool", "char", "long", "short", "void", "auto", "const"};
  // The printer's layout variables (L<n>_t<dim>, L<n>_b..., L<n>_wm/wn) for every layout.
  for (std::size_t i = 0; i < k.layouts.size(); ++i) {
    const std::string L = "L" + std::to_string(i);
    for (int p = 0; p < k.layouts[i].parentRank(); ++p) r.insert(L + "_t" + std::to_string(p));
    r.insert(L + "_wm");
    r.insert(L + "_wn");
  }
  r.insert(k.name);
  r.insert(cudaVocabulary().begin(), cudaVocabulary().end());
  return r;
}

}  // namespace

KernelPrinter::KernelPrinter(const Kernel& k, const Target& t) : k_(k), t_(t), names_(reservedNames(k)) {
  walk(*k.body, [&](const Op& o) {
    for (const Value* v : o.operands) users_[v].push_back(&o);
  });
}

void KernelPrinter::mark(const Loc& l) {
  if (l.line == 0 || (l.line == markedLine_ && l.file == markedFile_)) return;
  markedLine_ = l.line;
  markedFile_ = l.file;
  body_ += kMark + std::to_string(l.line) + " " + l.file + "\n";
}

void KernelPrinter::unsupported(const Op& o, const std::string& what) {
  std::fprintf(stderr, "%s:%u:%u: error: %s\n", o.loc.file.c_str(), o.loc.line, o.loc.col, what.c_str());
  throw Unsupported{};
}

// `const T`, or `T const` where T is a pointer type (never `const const U*`).
std::string KernelPrinter::constType(ElemType e) { return e.isPtr() ? type(e) + " const" : "const " + type(e); }

std::string KernelPrinter::constDecl(ElemType e, const std::string& n) { return constType(e) + " " + n; }

std::string KernelPrinter::type(ElemType e) {
  if (e.kind == Scalar::F16 || (e.isPtr() && e.pointee == Scalar::F16)) usesHalf_ = true;
  if (e.kind == Scalar::BF16 || (e.isPtr() && e.pointee == Scalar::BF16)) usesBf16_ = true;
  return ctype(e);
}

const std::string& KernelPrinter::declare(const std::string& name, const std::string& decl) {
  if (preNames_.insert(name).second) pre_.push_back({name, decl});
  return *preNames_.find(name);
}
std::string KernelPrinter::lane() { return declare("lane", "const int lane = threadIdx.x & 31;"); }
std::string KernelPrinter::warp() { return declare("warp", "const int warp = threadIdx.x >> 5;"); }

/// (x / stride) % count for power-of-two stride and count, x < range.
std::string KernelPrinter::bits(const std::string& x, int stride, int count, int range) {
  std::string e = stride == 1 ? x : "(" + x + " >> " + std::to_string(log2i(stride)) + ")";
  if (stride * count < range) e = "(" + e + " & " + std::to_string(count - 1) + ")";
  return e;
}

// Thread position along parent dimension p of layout li, in units of spt (0 when one thread
// covers it); with several runs per warp, the warp part steps over all of them.
std::string KernelPrinter::threadPos(int li, int p) {
  const Layout& l = k_.layouts[static_cast<std::size_t>(li)];
  const auto P = static_cast<std::size_t>(p);
  if (l.tpw[P] * l.wpc[P] == 1) return "0";
  int lstride = 1, wstride = 1;
  for (int q : l.order) {
    if (q == p) break;
    lstride *= l.tpw[static_cast<std::size_t>(q)];
    wstride *= l.wpc[static_cast<std::size_t>(q)];
  }
  const int tpw = l.tpw[P], wpc = l.wpc[P];
  std::string lanePart, warpPart;
  if (tpw > 1) lanePart = bits(lane(), lstride, tpw, 32);
  if (wpc > 1) warpPart = bits(warp(), wstride, wpc, k_.numWarps);
  // With several runs per warp, a warp's threads are tpw·rpw positions apart (in units of spt).
  const int warpStep = tpw * l.runsPerWarp(p);
  const std::string e = warpPart.empty()   ? lanePart
                        : lanePart.empty() ? (warpStep == 1 ? warpPart : warpPart + " * " + std::to_string(warpStep))
                                           : warpPart + " * " + std::to_string(warpStep) + " + " + lanePart;
  const std::string name = "L" + std::to_string(li) + "_t" + std::to_string(p);
  return declare(name, "const int " + name + " = " + e + ";  // thread position along dim " + std::to_string(p) + " of L" +
                           std::to_string(li));
}

Geo KernelPrinter::geo(const Value* v) {
  Geo g;
  if (v->layout < 0) internalError("tile value without a layout in " + k_.name);
  g.layoutIndex = v->layout;
  g.l = &k_.layouts[static_cast<std::size_t>(v->layout)];
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

// `e` as one operand: a register index that is a sum (a reduction's `reg + reg2 * 4`, an input
// register `(reg % 2) + (reg / 2) * 2`) goes into `/`, `%` and `*`, so it needs parentheses
// unless it is a name, a number or already one parenthesised whole.
namespace {
std::string grouped(const std::string& e) {
  bool atom = !e.empty();
  for (char c : e) atom = atom && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!atom && !e.empty() && e.front() == '(') {
    int depth = 0;
    std::size_t close = 0;
    for (std::size_t p = 0; p < e.size() && !close; ++p)
      if (e[p] == '(') ++depth;
      else if (e[p] == ')' && --depth == 0) close = p;
    atom = close + 1 == e.size();
  }
  return atom ? e : "(" + e + ")";
}
}  // namespace

std::string KernelPrinter::digit(const Geo& g, int a, const std::string& reg) {
  const auto& x = g.ax[static_cast<std::size_t>(a)];
  if (x.regs == 1) return "0";
  const int rs = g.rstride[static_cast<std::size_t>(a)];
  const std::string i = grouped(reg);
  std::string d = rs == 1 ? i : "(" + i + " / " + std::to_string(rs) + ")";
  if (rs * x.regs != g.n) d = "(" + d + " % " + std::to_string(x.regs) + ")";
  return d;
}

// First coordinate this thread holds along axis a.
std::string KernelPrinter::base(const Geo& g, int a) {
  const auto& x = g.ax[static_cast<std::size_t>(a)];
  const std::string t = threadPos(g.layoutIndex, x.parentDim);
  if (t == "0") return "0";
  const int spt = g.l->spt[static_cast<std::size_t>(x.parentDim)];
  const std::string e = spt == 1 ? t : t + " * " + std::to_string(spt);
  if (!x.replicated) return e;
  if (spt >= x.extent) return "0";
  return "((" + e + ") & " + std::to_string(x.extent - 1) + ")";
}

// Coordinate along axis a of register `i` (an expression): base(g, a) + coordOffset(g, a, i).
std::string KernelPrinter::coord(const Geo& g, int a, const std::string& i) {
  const std::string b = base(g, a);
  const std::string off = coordOffset(g, a, i);
  if (b == "0") return off;
  return off == "0" ? b : b + " + " + off;
}

// The part of register `i`'s coordinate along axis a that does not depend on the thread: a
// constant once the register loop is unrolled.
std::string KernelPrinter::coordOffset(const Geo& g, int a, const std::string& i) {
  const auto& x = g.ax[static_cast<std::size_t>(a)];
  const std::string d = digit(g, a, i);
  std::string off;
  if (d == "0") off = "";
  else if (x.rpw > 1)  // runs of spt, rpw runs `run` apart per warp, then the next pass
    off = "(" + d + " / " + std::to_string(x.spt * x.rpw) + ") * " + std::to_string(x.coverage) + " + (" + d + " / " +
          std::to_string(x.spt) + " % " + std::to_string(x.rpw) + ") * " + std::to_string(x.run) +
          (x.spt > 1 ? " + " + d + " % " + std::to_string(x.spt) : "");
  else if (x.spt == 1) off = x.coverage == 1 ? d : d + " * " + std::to_string(x.coverage);
  else if (x.regs == x.spt) off = d;
  else off = "(" + d + " / " + std::to_string(x.spt) + ") * " + std::to_string(x.coverage) + " + " + d + " % " + std::to_string(x.spt);
  return off.empty() ? "0" : off;
}

/// Condition under which this thread is the one owner of its elements (replicated layouts
/// hold copies); empty when every thread owns its elements. `skipDim` is left out.
std::string KernelPrinter::owner(const Geo& g, int skipDim) {
  std::vector<std::string> conds;
  const Layout& l = *g.l;
  for (int p = 0; p < l.parentRank(); ++p) {
    const auto P = static_cast<std::size_t>(p);
    if (p == skipDim || l.tpw[P] * l.wpc[P] == 1) continue;
    const auto it = std::find(l.dims.begin(), l.dims.end(), p);
    if (it == l.dims.end()) {
      conds.push_back(threadPos(g.layoutIndex, p) + " == 0");
    } else {
      const auto& x = g.ax[static_cast<std::size_t>(it - l.dims.begin())];
      if (x.replicated) conds.push_back(threadPos(g.layoutIndex, p) + " * " + std::to_string(l.spt[P]) + " < " + std::to_string(x.extent));
    }
  }
  std::string s;
  for (auto& c : conds) s += (s.empty() ? "" : " && ") + c;
  return s;
}

std::string KernelPrinter::zero(ElemType e) {
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

std::string KernelPrinter::scalar(const Value* v) {
  if (v->type.isTile()) internalError("scalar expected");
  const Op* d = v->def;
  if (d && d->kind == OpKind::Hint) return scalar(d->operands[0]);
  if (d && d->kind == OpKind::Constant) {
    const ElemType e = v->type.elem;
    if (e.isFloat()) {
      const std::string f = floatLiteral(d->floatValue);
      return e.kind == Scalar::F32 ? f : (e.kind == Scalar::F16 ? "tilecc::cvt_f16(" : "tilecc::cvt_bf16(") + f + ")";
    }
    switch (e.kind) {
      case Scalar::Bool: return d->intValue ? "true" : "false";
      case Scalar::I32: return d->intValue == INT32_MIN ? "(-2147483647 - 1)" : d->intValue < 0 ? "(" + std::to_string(d->intValue) + ")" : std::to_string(d->intValue);
      case Scalar::U32: return std::to_string(static_cast<std::uint32_t>(d->intValue)) + "u";
      case Scalar::I64:
        return d->intValue == INT64_MIN ? "int64_t(-9223372036854775807ll - 1)" : "int64_t(" + std::to_string(d->intValue) + "ll)";
      case Scalar::U64: return "uint64_t(" + std::to_string(static_cast<std::uint64_t>(d->intValue)) + "ull)";
      case Scalar::Ptr: return "static_cast<" + type(e) + ">(nullptr)";
      default: return type(e) + "(" + std::to_string(d->intValue) + ")";
    }
  }
  return names_.of(v);
}

bool KernelPrinter::isTrue(const Value* v) {
  const Op* c = scalarConstant(v);
  return c && c->result()->type.elem.isBool() && c->intValue != 0;
}

View& KernelPrinter::view(const Value* v) {
  auto it = views_.find(v->id);
  if (it == views_.end()) internalError("no registers for value %" + std::to_string(v->id) + " in " + k_.name);
  return it->second;
}

/// Element `i` (register index expression) of v, or the scalar v.
std::string KernelPrinter::el(const Value* v, const std::string& i) {
  if (!v->type.isTile()) return scalar(v);
  const View& w = view(v);
  if (w.scalar) return w.base;
  const Geo g = geo(v);
  bool identity = true;
  for (std::size_t a = 0; a < w.strides.size(); ++a)
    if (g.ax[a].regs > 1 && w.strides[a] != g.rstride[a]) identity = false;
  if (identity) return w.base + "[" + i + "]";
  const std::string ip = grouped(i);
  std::string idx;
  for (int a = 0; a < static_cast<int>(w.strides.size()); ++a) {
    const int s = w.strides[static_cast<std::size_t>(a)];
    const std::string d = digit(g, a, ip);
    if (s == 0 || d == "0") continue;
    idx += (idx.empty() ? "" : " + ") + (s == 1 ? d : d + " * " + std::to_string(s));
  }
  return w.base + "[" + (idx.empty() ? "0" : idx) + "]";
}

/// Declares the register array of a tile result; returns its name.
std::string KernelPrinter::array(const Value* v, const std::string& comment) {
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

void KernelPrinter::loop(int n, const std::string& stmt) {
  if (n == 1) {
    std::string s = stmt;
    for (std::size_t pos; (pos = s.find("[reg]")) != std::string::npos;) s.replace(pos, 5, "[0]");
    line(s);
    return;
  }
  line("#pragma unroll");
  line("for (int reg = 0; reg < " + std::to_string(n) + "; ++reg) " + stmt);
}

// ---- expressions ----

std::string KernelPrinter::f32(ElemType e, const std::string& x) { return isHalfLike(e) ? "tilecc::cvt_f32(" + x + ")" : x; }
std::string KernelPrinter::fromF32(ElemType e, const std::string& x) {
  if (e.kind == Scalar::F16) return "tilecc::cvt_f16(" + x + ")";
  if (e.kind == Scalar::BF16) return "tilecc::cvt_bf16(" + x + ")";
  return x;
}

std::string KernelPrinter::convertExpr(ElemType from, ElemType to, const std::string& x) {
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

namespace {
// Signed 32- and 64-bit tile arithmetic wraps (the contract; C++ signed overflow is undefined):
// printed through tilecc::wrap_*. int8 is computed in int and narrowed; scalars are C++'s in the
// host twin too.
bool wrapsSigned(ElemType e, bool tile) { return tile && (e.kind == Scalar::I32 || e.kind == Scalar::I64); }
}  // namespace

std::string KernelPrinter::binaryExpr(BinOp op, ElemType e, const std::string& a, const std::string& b, bool tile) {
  if (isHalfLike(e)) {
    const std::string fa = f32(e, a), fb = f32(e, b);
    if (isComparison(op)) return binaryExpr(op, ElemType::of(Scalar::F32), fa, fb, tile);
    return fromF32(e, binaryExpr(op, ElemType::of(Scalar::F32), fa, fb, tile));
  }
  auto infix = [&](const char* s) { return a + " " + s + " " + b; };
  const bool small = e.kind == Scalar::I8 || e.kind == Scalar::U8;
  // A literal 0 of an unsigned type, as the printer writes constants.
  auto unsignedZero = [&](const std::string& x) {
    return e.isInt() && !e.isSigned() && (x == "0u" || x == "0ull" || x == "0ul" || x == "uint8_t(0)" || x == "0");
  };
  auto narrow = [&](const std::string& x) { return small ? type(e) + "(" + x + ")" : x; };
  auto wrap = [&](const char* fn, const char* s) {
    return wrapsSigned(e, tile) ? std::string("tilecc::") + fn + "(" + a + ", " + b + ")" : narrow(infix(s));
  };
  switch (op) {
    case BinOp::Add: return wrap("wrap_add", "+");
    case BinOp::Sub: return wrap("wrap_sub", "-");
    case BinOp::Mul: return wrap("wrap_mul", "*");
    case BinOp::Div:
      if (e.isInt() && tile) return "tilecc::div(" + a + ", " + b + ")";
      // IEEE division by a literal zero (±inf or NaN, as the host twin computes) draws nvcc's
      // "division by zero" warning; the intrinsic is the same correctly rounded division.
      if (e.kind == Scalar::F32 && (b == "0.0f" || b == "(-0.0f)" || b == "-0.0f")) return "__fdiv_rn(" + a + ", " + b + ")";
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
      if (unsignedZero(b)) return a;  // max(u, 0) is u (the comparison would draw nvcc's "pointless comparison")
      if (unsignedZero(a)) return b;
      return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
    case BinOp::Min:
      if (e.kind == Scalar::F32) return "fminf(" + a + ", " + b + ")";
      if (unsignedZero(b)) return b;  // min(u, 0) is 0 (a reduction's identity meets a constant 0, say)
      if (unsignedZero(a)) return a;
      return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
    case BinOp::Pow: return "powf(" + a + ", " + b + ")";
    case BinOp::Atan2: return "atan2f(" + a + ", " + b + ")";
    case BinOp::Hypot: return "hypotf(" + a + ", " + b + ")";
    case BinOp::Fmod: return "fmodf(" + a + ", " + b + ")";
    case BinOp::Copysign: return "copysignf(" + a + ", " + b + ")";
    case BinOp::Remainder: return "remainderf(" + a + ", " + b + ")";
    case BinOp::Ldexp: return "ldexpf(" + a + ", static_cast<int>(" + b + "))";  // cvt saturates: any |b| > 300 is alike
    case BinOp::Eq: return infix("==");
    case BinOp::Ne: return infix("!=");
    case BinOp::Lt: return infix("<");
    case BinOp::Le: return infix("<=");
    case BinOp::Gt: return infix(">");
    case BinOp::Ge: return infix(">=");
  }
  return "?";
}

std::string KernelPrinter::unaryExpr(UnOp op, ElemType e, const std::string& a, bool tile) {
  if (isHalfLike(e) && op != UnOp::Not) return fromF32(e, unaryExpr(op, ElemType::of(Scalar::F32), f32(e, a), tile));
  const bool small = e.kind == Scalar::I8 || e.kind == Scalar::U8;
  // A prefix operator never meets a sign of its operand: -(-1), not --1.
  const std::string pa = !a.empty() && (a[0] == '-' || a[0] == '+' || a[0] == '!' || a[0] == '~') ? "(" + a + ")" : a;
  // -MIN wraps to MIN in a signed tile.
  const std::string neg = wrapsSigned(e, tile)               ? "tilecc::wrap_neg(" + a + ")"
                          : small || e.kind == Scalar::U32 ? type(e) + "(-" + pa + ")"
                                                           : "-" + pa;
  switch (op) {
    case UnOp::Neg: return neg;
    case UnOp::Not: return "!" + pa;
    case UnOp::BitNot: return small ? type(e) + "(~" + pa + ")" : "~" + pa;
    case UnOp::Abs:
      if (e.isFloat()) return "fabsf(" + a + ")";
      if (wrapsSigned(e, tile)) return "tilecc::wrap_abs(" + a + ")";  // |MIN| = MIN, which ptxas must not assume away
      return e.isSigned() ? "(" + a + " < 0 ? " + neg + " : " + a + ")" : a;
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
    case UnOp::Sigmoid: return "(1.0f / (1.0f + expf(-" + pa + ")))";
    case UnOp::Floor: return "floorf(" + a + ")";
    case UnOp::Ceil: return "ceilf(" + a + ")";
    case UnOp::Trunc: return "truncf(" + a + ")";
    case UnOp::Round: return "roundf(" + a + ")";
    case UnOp::RoundTf32: return "tilecc::to_tf32(" + a + ")";
    case UnOp::FastExp: return "tilecc::fast_exp(" + a + ")";
    case UnOp::FastExp2: return "tilecc::fast_exp2(" + a + ")";
    case UnOp::Log10: return "log10f(" + a + ")";
    case UnOp::Log1p: return "log1pf(" + a + ")";
    case UnOp::Expm1: return "expm1f(" + a + ")";
    case UnOp::Cbrt: return "cbrtf(" + a + ")";
    case UnOp::Asin: return "asinf(" + a + ")";
    case UnOp::Acos: return "acosf(" + a + ")";
    case UnOp::Atan: return "atanf(" + a + ")";
    case UnOp::Sinh: return "sinhf(" + a + ")";
    case UnOp::Cosh: return "coshf(" + a + ")";
    case UnOp::Asinh: return "asinhf(" + a + ")";
    case UnOp::Acosh: return "acoshf(" + a + ")";
    case UnOp::Atanh: return "atanhf(" + a + ")";
    case UnOp::Erfc: return "erfcf(" + a + ")";
    case UnOp::Tgamma: return "tgammaf(" + a + ")";
    case UnOp::Lgamma: return "lgammaf(" + a + ")";
    case UnOp::Rint: return "rintf(" + a + ")";
  }
  return "?";
}

// ---- vector words ----

std::string KernelPrinter::wordType(int total) {
  return total == 16 ? "uint4" : total == 8 ? "uint2" : total == 4 ? "unsigned" : total == 2 ? "unsigned short" : "unsigned char";
}
std::string KernelPrinter::word(int total, int index) {
  static const char* parts[] = {".x", ".y", ".z", ".w"};
  return total >= 8 ? std::string("word") + parts[index] : "word";
}

/// Element s of the loaded words.
std::string KernelPrinter::unpack(ElemType e, int total, int s) {
  const int bytes = e.bytes();
  const int byteOff = s * bytes;
  if (bytes == 8) {
    const std::string lo = word(total, byteOff / 4), hi = word(total, byteOff / 4 + 1);
    const std::string bits = "(static_cast<unsigned long long>(" + hi + ") << 32) | " + lo;
    // A pointer's bits come back through reinterpret_cast (static_cast converts only numbers).
    return (e.isPtr() ? "reinterpret_cast<" : "static_cast<") + type(e) + ">(" + bits + ")";
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
std::string KernelPrinter::packPart(ElemType e, const std::string& x, int shift) {
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

KernelPrinter::VecPlan KernelPrinter::vecPlan(const Access& acc, ElemType e, const Geo& g) {
  VecPlan v;
  if (acc.vec <= 1 || acc.axis < 0) return v;
  const int bytes = e.bytes();
  const int vec = issuedVec(acc, g.ax[static_cast<std::size_t>(acc.axis)].spt, bytes);
  if (vec <= 1) return v;
  v.ok = true;
  v.vec = vec;
  v.axis = acc.axis;
  v.stride = g.rstride[static_cast<std::size_t>(acc.axis)];
  v.total = vec * bytes;
  v.lastAxis = acc.axis == static_cast<int>(g.shape.size()) - 1;
  return v;
}

void KernelPrinter::vecLoop(const Geo& g, const VecPlan& v, const std::vector<std::string>& body) {
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

std::string KernelPrinter::at(const std::string& base, const VecPlan& v, int s) {
  if (s == 0) return base + "[reg]";
  return base + "[reg + " + std::to_string(s * v.stride) + "]";
}

std::string KernelPrinter::elAt(const Value* val, const VecPlan& v, int s) {
  return el(val, s == 0 ? "reg" : "(reg + " + std::to_string(s * v.stride) + ")");
}

void KernelPrinter::packWords(std::vector<std::string>& body, const Value* val, ElemType e, const VecPlan& v, const std::string& w) {
  const std::string wt = wordType(v.total);
  body.push_back(wt + " " + w + ";");
  const int bytes = e.bytes();
  const int words = std::max(1, v.total / 4);
  for (int wi = 0; wi < words; ++wi) {
    std::string x;
    if (bytes == 8) {
      const std::string el8 = e.isPtr() ? "reinterpret_cast<unsigned long long>(" + elAt(val, v, wi / 2) + ")"
                                        : "static_cast<unsigned long long>(" + elAt(val, v, wi / 2) + ")";
      x = wi % 2 == 0 ? "static_cast<unsigned>(" + el8 + ")" : "static_cast<unsigned>(" + el8 + " >> 32)";
    } else {
      const int perWord = std::min(v.vec, 4 / bytes);
      for (int k2 = 0; k2 < perWord; ++k2) {
        const int s2 = wi * (4 / bytes) + k2;
        x += (x.empty() ? "" : " | ") + packPart(e, elAt(val, v, s2), k2 * bytes * 8);
      }
    }
    const std::string target = v.total >= 8 ? word(v.total, wi) : w;
    body.push_back(target + " = " + (v.total < 4 ? "static_cast<" + wt + ">(" + x + ")" : x) + ";");
  }
}

// ---- shared memory ----

std::string KernelPrinter::buffer(const Value* v) {
  auto it = buffers_.find(v->id);
  if (it == buffers_.end()) internalError("a shared buffer used before its allocation in " + k_.name);
  return it->second;
}

std::string KernelPrinter::sharedAddress(const Value* v, const Value* buf, bool transposed, const std::string& reg) {
  const Geo g = geo(v);
  const Type& t = buf->type;
  const int eb = t.elem.bytes();
  const int r = v->type.rank();
  std::vector<std::string> c;
  for (int a = 0; a < r; ++a) c.push_back(coord(g, a, reg));
  std::vector<int> shape = v->type.shape;
  if (transposed) {
    std::swap(c[0], c[1]);
    std::swap(shape[0], shape[1]);
  }
  auto term = [](const std::string& x, long long m) {
    if (x == "0") return std::string();
    return m == 1 ? "(" + x + ")" : "(" + x + ") * " + std::to_string(m);
  };
  std::string e;
  auto add = [&](const std::string& t2) {
    if (!t2.empty()) e += (e.empty() ? "" : " + ") + t2;
  };
  // Axes `last` down to 0 in row-major order, axis `last` counting `m` (outermost term first).
  auto rowMajor = [&](int last, long long m) {
    std::vector<std::string> terms;
    for (int a = last; a >= 0; --a) {
      terms.push_back(term(c[static_cast<std::size_t>(a)], m));
      m *= shape[static_cast<std::size_t>(a)];
    }
    for (auto it = terms.rbegin(); it != terms.rend(); ++it) add(*it);
  };
  if (shape != t.shape) {  // an unpadded buffer read in another shape: row-major order
    rowMajor(r - 1, eb);
  } else if (t.smem.swizzle) {  // swizzled: the row index, the byte in the row, then the permutation
    rowMajor(r - 2, 1);
    const std::string byte = term(c.back(), eb);
    return buffer(buf) + " + tilecc::swizzled<" + std::to_string(t.smem.swizzle) + ", " + std::to_string(t.rows()) + ">(" +
           (e.empty() ? "0" : e) + ", " + (byte.empty() ? "0" : byte) + ")";
  } else {
    rowMajor(r - 2, t.smem.pitch);
    add(term(c.back(), eb));
  }
  return buffer(buf) + (e.empty() ? "" : " + " + e);
}

}  // namespace tilecc::codegen
