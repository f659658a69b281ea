#include "ir/Printer.h"

#include "ir/GridExpr.h"
#include "ir/Names.h"
#include "ir/OpTraits.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace tilecc::ir {

std::string printFloat(double f) {
  if (std::isfinite(f)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", f);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  }
  std::uint64_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  char buf[32];
  std::snprintf(buf, sizeof buf, "bits(0x%016llx)", static_cast<unsigned long long>(bits));
  return buf;
}

namespace {

std::string list(const std::vector<int>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string quote(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

struct IRPrinter {
  PrintOptions opts;
  Names names;
  std::ostringstream out;

  std::string ref(const Value* v) { return "%" + names.of(v); }

  std::string typed(const Value* v) {
    std::string s = toString(v->type);
    if (opts.layouts && v->type.isTile() && v->layout >= 0) s += " #L" + std::to_string(v->layout);
    return s;
  }

  void block(const Block& b, int indent) {
    for (const auto& op : b.ops) this->op(*op, indent);
  }

  // [key=value, ...] for the attributes the op's kind uses.
  std::string attributes(const Op& o) {
    const unsigned a = traits(o.kind).attrs;
    std::vector<std::string> items;
    if (a & kAttrAxis) items.push_back("axis=" + std::to_string(o.axis));
    if (a & kAttrHint) items.push_back("value=" + std::to_string(o.intValue));
    if ((a & kAttrTf32) && o.tf32) items.push_back("tf32");
    if ((a & kAttrAccess) && o.access.axis >= 0) {
      items.push_back("vec=" + std::to_string(o.access.vec));
      items.push_back("vec_axis=" + std::to_string(o.access.axis));
      if (!o.access.limits.empty()) {
        std::string l = "limits=[";
        for (std::size_t i = 0; i < o.access.limits.size(); ++i) l += (i ? ", " : "") + quote(o.access.limits[i]);
        items.push_back(l + "]");
      }
    }
    if ((a & kAttrOffset) && o.offset >= 0) items.push_back("offset=" + std::to_string(o.offset));
    if ((a & kAttrTransposed) && o.transposed) items.push_back("transposed");
    if ((a & kAttrTransposed) && o.transposedA) items.push_back("transposed_a");
    if (a & kAttrCount) items.push_back("count=" + std::to_string(o.count));
    if ((a & kAttrSync) && o.kind == OpKind::Barrier) {
      items.push_back(std::string("sync=") + name(o.sync));
      if (o.sync != Sync::Cta && o.sync != Sync::Warp) {
        items.push_back("id=" + std::to_string(o.barrierId));
        items.push_back("threads=" + std::to_string(o.barrierThreads));
      }
      if (o.sync == Sync::TurnWait || o.sync == Sync::TurnPass) items.push_back("groups=" + std::to_string(o.count));
    }
    if (a & kAttrInstr) items.push_back(std::string("instr=") + name(o.instr));
    if (a & kAttrWarpGroup) {
      items.push_back("first_warp=" + std::to_string(o.firstWarp));
      items.push_back("num_warps=" + std::to_string(o.numWarps));
    }
    if ((a & kAttrNote) && !o.note.empty()) items.push_back("note=" + quote(o.note));
    if (a & kAttrRegs) {
      items.push_back("regs=" + std::to_string(o.regs));
      if (o.increase) items.push_back("increase");
    }
    if (items.empty()) return "";
    std::string s = " [";
    for (std::size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
    return s + "]";
  }

  void op(const Op& o, int indent) {
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    out << pad;
    if (o.kind == OpKind::For) return forOp(o, indent);
    if (o.kind == OpKind::If) return ifOp(o, indent);
    if (!o.results.empty()) {
      for (std::size_t k = 0; k < o.results.size(); ++k) out << (k ? ", " : "") << ref(o.results[k]);
      out << " = ";
    }
    out << name(o.kind);
    switch (o.kind) {
      case OpKind::Binary: out << "." << name(o.binop); break;
      case OpKind::Unary: out << "." << name(o.unop); break;
      case OpKind::Reduce:
      case OpKind::Scan: out << "." << name(o.reduce); break;
      case OpKind::Hint: out << "." << name(o.hint); break;
      case OpKind::Constant:
        out << " " << (o.result()->type.elem.isFloat() ? printFloat(o.floatValue) : std::to_string(o.intValue));
        break;
      default: break;
    }
    for (std::size_t k = 0; k < o.operands.size(); ++k) out << (k ? ", " : " ") << ref(o.operands[k]);
    out << attributes(o);
    if (!o.results.empty()) {
      out << " : ";
      for (std::size_t k = 0; k < o.results.size(); ++k) out << (k ? ", " : "") << typed(o.results[k]);
    }
    if (!o.regions.empty()) {
      const Block& r = *o.regions[0];
      if (!r.args.empty()) {  // a combine function's operands
        out << " (";
        for (std::size_t k = 0; k < r.args.size(); ++k) out << (k ? ", " : "") << ref(r.args[k]);
        out << ")";
      }
      out << " {\n";
      block(*o.regions[0], indent + 2);
      out << std::string(static_cast<std::size_t>(indent), ' ') << "}";
      if (o.regions.size() > 1) {  // a warp_group's other warps
        out << " else {\n";
        block(*o.regions[1], indent + 2);
        out << std::string(static_cast<std::size_t>(indent), ' ') << "}";
      }
    }
    out << "\n";
  }

  void forOp(const Op& o, int indent) {
    const Block& body = *o.regions[0];
    out << "for " << ref(body.args[0]) << " = " << ref(o.operands[0]) << " " << name(o.cmp) << " " << ref(o.operands[1])
        << " step " << ref(o.operands[2]);
    if (o.operands.size() > 3) {
      out << " iter(";
      for (std::size_t k = 3; k < o.operands.size(); ++k)
        out << (k > 3 ? ", " : "") << ref(body.args[k - 2]) << " = " << ref(o.operands[k]);
      out << ")";
    }
    results(o);
    out << " {\n";
    block(body, indent + 2);
    out << std::string(static_cast<std::size_t>(indent), ' ') << "}\n";
  }

  void ifOp(const Op& o, int indent) {
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    out << "if " << ref(o.operands[0]);
    results(o);
    out << attributes(o) << " {\n";
    block(*o.regions[0], indent + 2);
    out << pad << "} else {\n";
    block(*o.regions[1], indent + 2);
    out << pad << "}\n";
  }

  void results(const Op& o) {
    if (o.results.empty()) return;
    out << " -> (";
    for (std::size_t k = 0; k < o.results.size(); ++k) out << (k ? ", " : "") << ref(o.results[k]) << ": " << typed(o.results[k]);
    out << ")";
  }
};

}  // namespace

std::string print(const Kernel& k, PrintOptions opts) {
  opts.layouts = opts.layouts || !k.layouts.empty();  // with_layout pins layouts at the tile level
  IRPrinter p{opts, Names{}, {}};
  p.out << "kernel @" << k.name << " " << quote(k.sourceName) << " num_warps=" << k.numWarps << " num_stages=" << k.numStages;
  if (k.warpSpecialize >= 0) p.out << " warp_specialize=" << (k.warpSpecialize ? "true" : "false");
  if (k.minPrograms) p.out << " min_programs_per_sm=" << k.minPrograms;
  if (k.producerWarps) p.out << " producer_warps=" << k.producerWarps;
  if (k.persistent) p.out << " persistent";
  if (k.specialised && k.assumed.empty()) p.out << " specialised";  // implied by assumed(...)
  if (k.level == Level::Gpu) p.out << " level=gpu";
  if (!k.target.empty()) p.out << " target=" << k.target;
  if (k.sharedBytes) p.out << " shared=" << k.sharedBytes;
  p.out << " (";
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const auto& info = k.paramInfo[i];
    p.out << (i ? ", " : "") << p.ref(k.params[i]) << ": " << toString(k.params[i]->type);
    if (info.aligned) p.out << " aligned(" << info.aligned << ")";
    if (info.multipleOf) p.out << " multiple_of(" << info.multipleOf << ")";
  }
  p.out << ")";
  if (!k.assumed.empty()) {
    p.out << " assumed(";
    for (std::size_t i = 0; i < k.assumed.size(); ++i)
      p.out << (i ? ", " : "") << p.ref(k.params[static_cast<std::size_t>(k.assumed[i].first)]) << ":"
            << (k.assumed[i].second == kEqualsOne     ? std::string("=1")
                : k.assumed[i].second == kNonNegative ? std::string(">=0")
                                                      : std::to_string(k.assumed[i].second));
    p.out << ")";
  }
  for (const GridCheck& c : k.gridChecks)
    p.out << " grid_check(line " << c.line << " " << quote(c.what) << " " << quote(c.why) << ": "
          << printGridExpr(c.expr, [&](int i) { return p.ref(k.params[static_cast<std::size_t>(i)]); }) << ")";
  // TMA descriptors among the parameters: what the launcher encodes them from.
  auto expr = [&](const HostExpr& e) {
    std::string s;
    for (const HostTerm& t : e) {
      std::string term = t.params.empty() || t.coef != 1 ? std::to_string(t.coef) : "";
      for (int i : t.params) term += (term.empty() ? "" : "*") + p.ref(k.params[static_cast<std::size_t>(i)]);
      s += (s.empty() ? "" : " + ") + term;
    }
    return s.empty() ? std::string("0") : s;
  };
  for (const TensorMapInfo& m : k.tensorMaps) {
    p.out << " tensor_map(" << p.ref(k.params[static_cast<std::size_t>(m.param)]) << ": base="
          << p.ref(k.params[static_cast<std::size_t>(m.baseParam)]) << " dims=[";
    for (std::size_t i = 0; i < m.dims.size(); ++i) p.out << (i ? ", " : "") << expr(m.dims[i]);
    p.out << "] strides=[";
    for (std::size_t i = 0; i < m.strides.size(); ++i) p.out << (i ? ", " : "") << expr(m.strides[i]);
    p.out << "] box=[";
    for (std::size_t i = 0; i < m.box.size(); ++i) p.out << (i ? ", " : "") << m.box[i];
    p.out << "] swizzle=" << m.swizzle;
    if (m.im2colShift) p.out << " im2col=" << m.im2colShift;
    p.out << ")";
  }
  p.out << " {\n";
  if (opts.layouts)
    for (std::size_t i = 0; i < k.layouts.size(); ++i) p.out << "  #L" << i << " = " << describe(k.layouts[i]) << "\n";
  p.block(*k.body, 2);
  p.out << "}\n";
  return p.out.str();
}

}  // namespace tilecc::ir
