// Global memory: loads, stores and atomics of tiles (each thread its registers, grouped into
// vectors as wide as the access says) and of scalars (one thread stores and adds).
#include "codegen/KernelPrinter.h"

namespace tilecc::codegen {

void KernelPrinter::accessNote(const Op& o, const std::string& what, ElemType e, const VecPlan& v, const std::string& extra) {
  const int bytes = e.bytes();
  const int vec = v.ok ? v.vec : 1;
  std::string s = what + " at line " + std::to_string(o.loc.line) + ": " + std::to_string(vec) + " x " + toString(e) + " = " +
                  std::to_string(vec * bytes) + " bytes per access";
  std::vector<std::string> why = o.access.limits;
  if (vec < o.access.vec)
    why.insert(why.begin(), std::to_string(o.access.vec) + " proven; the layout holds " + std::to_string(vec) +
                                " consecutive elements per thread");
  if (!why.empty()) {
    s += " (";
    for (std::size_t i = 0; i < why.size(); ++i) s += (i ? "; " : "") + why[i];
    s += ")";
  }
  accesses_.push_back(s + extra);
}

void KernelPrinter::memory(const Op& o) {
  const Value* r = o.result();
  const Value* p = o.operands[0];
  const bool used = r && users_.count(r);
  switch (o.kind) {
    case OpKind::Load: {
      if (!p->type.isTile()) {
        std::string e = "*" + scalar(p);
        if (o.operands.size() >= 2)
          e = scalar(o.operands[1]) + " ? " + e + " : " + (o.operands.size() >= 3 ? scalar(o.operands[2]) : zero(r->type.elem));
        line(constDecl(r->type.elem, names_.of(r)) + " = " + e + ";");
        return;
      }
      const std::string pe = el(p, "reg");
      const Geo g = geo(r);
      const VecPlan v = vecPlan(o.access, r->type.elem, geo(p));
      accessNote(o, "load", r->type.elem, v, o.note.empty() ? "" : ", " + o.note);  // pipeline-loops: why not copied ahead
      if (v.ok) {
        const std::string n = array(r, std::to_string(v.vec) + " elements per access");
        const std::string wt = wordType(v.total);
        std::vector<std::string> body;
        const std::string ld = "const " + wt + " word = *reinterpret_cast<const " + wt + "*>(" + pe + ");";
        if (o.operands.size() >= 2) {
          body.push_back("if (" + el(o.operands[1], "reg") + ") {");
          body.push_back("  " + ld);
          for (int s = 0; s < v.vec; ++s) body.push_back("  " + at(n, v, s) + " = " + unpack(r->type.elem, v.total, s) + ";");
          body.push_back("} else {");
          for (int s = 0; s < v.vec; ++s)
            body.push_back("  " + at(n, v, s) + " = " + (o.operands.size() >= 3 ? elAt(o.operands[2], v, s) : zero(r->type.elem)) + ";");
          body.push_back("}");
        } else {
          body.push_back(ld);
          for (int s = 0; s < v.vec; ++s) body.push_back(at(n, v, s) + " = " + unpack(r->type.elem, v.total, s) + ";");
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
      const VecPlan v = vecPlan(o.access, e, g);
      accessNote(o, "store", e, v);
      if (v.ok) {
        std::vector<std::string> body;
        packWords(body, o.operands[1], e, v, "word");
        body.push_back((cond.empty() ? "" : "if (" + cond + ") ") + "*reinterpret_cast<" + wordType(v.total) + "*>(" + el(p, "reg") + ") = word;");
        vecLoop(g, v, body);
        return;
      }
      loop(g.n, (cond.empty() ? "" : "if (" + cond + ") ") + "*" + el(p, "reg") + " = " + el(o.operands[1], "reg") + ";");
      return;
    }
    default: break;  // atomic_add
  }
  const ElemType e = o.operands[1]->type.elem;
  if (!p->type.isTile()) {
    // One thread adds; where the old value is used, it holds in that thread only (the GPU level
    // shares it through shared memory).
    const std::string call = "tilecc::atomic_add(" + scalar(p) + ", " + scalar(o.operands[1]) + ")";
    std::string cond = "threadIdx.x == 0";
    if (o.operands.size() >= 3) cond += " && " + scalar(o.operands[2]);
    if (!used) {
      line("if (" + cond + ") " + call + ";");
      return;
    }
    const std::string n = names_.of(r);
    line(type(e) + " " + n + " = " + zero(e) + ";  // the old value, in the thread that added");
    line("if (" + cond + ") " + n + " = " + call + ";");
    return;
  }
  const Geo g = geo(p);
  std::string cond = owner(g);
  if (o.operands.size() >= 3) cond += (cond.empty() ? "" : " && ") + el(o.operands[2], "reg");
  const VecPlan v = used ? VecPlan{} : vecPlan(o.access, e, g);
  accessNote(o, "atomic_add", e, v);
  if (v.ok && v.vec > 1) {  // f32 vectors (sm_90: red.global.add.v2/.v4.f32), pairs of f16/bf16 (.f16x2, .bf16x2)
    const bool f16 = e == ElemType::of(Scalar::F16), bf16 = e == ElemType::of(Scalar::BF16);
    const std::string vt = f16 ? "__half2" : bf16 ? "__nv_bfloat162" : v.vec == 4 ? "float4" : "float2";
    std::string vals;
    for (int s = 0; s < v.vec; ++s) vals += (s ? ", " : "") + elAt(o.operands[1], v, s);
    const std::string value = f16 || bf16 ? vt + "(" + vals + ")" : vt + "{" + vals + "}";
    vecLoop(g, v, {(cond.empty() ? "" : "if (" + cond + ") ") + "atomicAdd(reinterpret_cast<" + vt + "*>(" + el(p, "reg") + "), " + value + ");"});
    return;
  }
  const std::string call = "tilecc::atomic_add(" + el(p, "reg") + ", " + el(o.operands[1], "reg") + ")";
  if (!used) {  // old values unused: owners just add
    loop(g.n, (cond.empty() ? "" : "if (" + cond + ") ") + call + ";");
    return;
  }
  // Copies that are not owners hold 0 until the GPU level shares the owners' old values.
  const std::string n = array(r, "old values");
  loop(g.n, n + "[reg] = " + (cond.empty() ? call : cond + " ? " + call + " : " + zero(e)) + ";");
}

}  // namespace tilecc::codegen
