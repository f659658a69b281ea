#include "ir/Printer.h"

#include "analysis/Layout.h"
#include "ir/Names.h"

#include <cstdio>
#include <sstream>

namespace tilecc::ir {

const char* name(OpKind k) {
  switch (k) {
    case OpKind::Constant: return "const";
    case OpKind::ProgramId: return "program_id";
    case OpKind::NumPrograms: return "num_programs";
    case OpKind::Arange: return "arange";
    case OpKind::Splat: return "splat";
    case OpKind::Broadcast: return "broadcast";
    case OpKind::ExpandDims: return "expand_dims";
    case OpKind::Reshape: return "reshape";
    case OpKind::Trans: return "trans";
    case OpKind::Binary: return "binary";
    case OpKind::Unary: return "unary";
    case OpKind::Fma: return "fma";
    case OpKind::Select: return "select";
    case OpKind::Convert: return "convert";
    case OpKind::AddPtr: return "addptr";
    case OpKind::Load: return "load";
    case OpKind::Store: return "store";
    case OpKind::AtomicAdd: return "atomic_add";
    case OpKind::Reduce: return "reduce";
    case OpKind::Dot: return "dot";
    case OpKind::Barrier: return "barrier";
    case OpKind::For: return "for";
    case OpKind::If: return "if";
    case OpKind::Yield: return "yield";
    case OpKind::Return: return "return";
    case OpKind::ConvertLayout: return "convert_layout";
    case OpKind::Hint: return "hint";
  }
  return "?";
}

const char* name(BinOp o) {
  static const char* n[] = {"add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor",
                            "max", "min", "pow", "eq",  "ne",  "lt",  "le",  "gt",  "ge"};
  return n[static_cast<int>(o)];
}

const char* name(UnOp o) {
  static const char* n[] = {"neg",  "not", "bitnot", "abs", "exp",  "exp2",    "log",   "log2", "sqrt",  "rsqrt",
                            "sin",  "cos", "tan",    "tanh", "erf", "sigmoid", "floor", "ceil", "trunc", "round"};
  return n[static_cast<int>(o)];
}

const char* name(ReduceKind r) {
  static const char* n[] = {"sum", "max", "min", "argmax", "argmin"};
  return n[static_cast<int>(r)];
}

namespace {

struct IRPrinter {
  const std::vector<Layout>* layouts;
  Names names;
  std::ostringstream out;

  std::string ref(const Value* v) { return "%" + names.of(v); }

  std::string typed(const Value* v) {
    std::string s = toString(v->type);
    if (layouts && v->type.isTile() && v->layout >= 0) s += " #L" + std::to_string(v->layout);
    return s;
  }

  static std::string number(double f) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", f);
    return buf;
  }

  void block(const Block& b, int indent) {
    for (auto& op : b.ops) this->op(*op, indent);
  }

  void op(const Op& o, int indent) {
    std::string pad(static_cast<std::size_t>(indent), ' ');
    out << pad;
    if (!o.results.empty() && o.kind != OpKind::For && o.kind != OpKind::If) {
      for (std::size_t k = 0; k < o.results.size(); ++k) out << (k ? ", " : "") << ref(o.results[k]);
      out << " = ";
    }
    out << name(o.kind);
    switch (o.kind) {
      case OpKind::Binary: out << "." << name(o.binop()); break;
      case OpKind::Unary: out << "." << name(o.unop()); break;
      case OpKind::Reduce: out << "." << name(o.reduceKind()) << " axis=" << o.i; break;
      case OpKind::Constant:
        out << " " << (o.result()->type.elem.isFloat() ? number(o.f) : std::to_string(o.i));
        break;
      case OpKind::ProgramId:
      case OpKind::NumPrograms:
      case OpKind::ExpandDims: out << " " << o.i; break;
      case OpKind::Arange: break;
      case OpKind::Dot:
        if (o.i) out << " tf32";
        break;
      case OpKind::Hint: out << (o.sub == 0 ? ".multiple_of " : ".max_contiguous ") << o.i; break;
      default: break;
    }
    if (o.kind == OpKind::For) {
      static const char* cmp[] = {"lt", "le", "gt", "ge", "ne"};
      const Block& body = *o.regions[0];
      out << " " << ref(body.args[0]) << " = " << ref(o.operands[0]) << " " << cmp[o.sub] << " "
          << ref(o.operands[1]) << " step " << ref(o.operands[2]);
      if (o.operands.size() > 3) {
        out << " iter(";
        for (std::size_t k = 3; k < o.operands.size(); ++k)
          out << (k > 3 ? ", " : "") << ref(body.args[k - 2]) << " = " << ref(o.operands[k]);
        out << ")";
      }
      results(o);
      out << " {\n";
      block(body, indent + 2);
      out << pad << "}\n";
      return;
    }
    if (o.kind == OpKind::If) {
      out << " " << ref(o.operands[0]);
      results(o);
      out << " {\n";
      block(*o.regions[0], indent + 2);
      out << pad << "} else {\n";
      block(*o.regions[1], indent + 2);
      out << pad << "}\n";
      return;
    }
    for (std::size_t k = 0; k < o.operands.size(); ++k) out << (k ? ", " : " ") << ref(o.operands[k]);
    if ((o.kind == OpKind::Load || o.kind == OpKind::Store || o.kind == OpKind::AtomicAdd) && o.vecAxis >= 0)
      out << " {vec=" << o.vec << " axis=" << o.vecAxis << "}";
    if (!o.results.empty()) {
      out << " : ";
      for (std::size_t k = 0; k < o.results.size(); ++k) out << (k ? ", " : "") << typed(o.results[k]);
    }
    out << "\n";
  }

  void results(const Op& o) {
    if (o.results.empty()) return;
    out << " -> (";
    for (std::size_t k = 0; k < o.results.size(); ++k)
      out << (k ? ", " : "") << ref(o.results[k]) << ": " << typed(o.results[k]);
    out << ")";
  }
};

}  // namespace

std::string print(const Kernel& k, const std::vector<Layout>* layouts) {
  IRPrinter p{layouts, Names{}, {}};
  p.out << "kernel @" << k.name << " \"" << k.sourceName << "\" num_warps=" << k.numWarps
        << " num_stages=" << k.numStages << " (";
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const auto& info = k.paramInfo[i];
    p.out << (i ? ", " : "") << p.ref(k.params[i]) << ": " << toString(k.params[i]->type);
    if (info.aligned) p.out << " aligned(" << info.aligned << ")";
    if (info.multipleOf) p.out << " multiple_of(" << info.multipleOf << ")";
  }
  p.out << ") {\n";
  if (layouts)
    for (std::size_t i = 0; i < layouts->size(); ++i)
      p.out << "  #L" << i << " = " << describe((*layouts)[i]) << "\n";
  p.block(*k.body, 2);
  p.out << "}\n";
  return p.out.str();
}

}  // namespace tilecc::ir
