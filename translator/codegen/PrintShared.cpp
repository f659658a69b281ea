// Shared memory: buffers are byte pointers into `smem` at the offsets allocateShared chose;
// stores and loads move each thread's registers, in vectors as wide as the op's access says.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"

namespace tilecc::codegen {

std::string KernelPrinter::describeBuffer(const Value* buf) {
  const Type& t = buf->type;
  if (t.kind == TypeKind::MBarrier) return std::to_string(t.stages) + (t.stages == 1 ? " mbarrier" : " mbarriers");
  std::string s = "[";
  for (std::size_t a = 0; a < t.shape.size(); ++a) s += (a ? "][" : "") + std::to_string(t.shape[a]);
  s += "] " + toString(t.elem) + ", " + std::to_string(t.smem.pitch) + "-byte rows";
  if (t.smem.swizzle) s += ", " + std::to_string(t.smem.swizzle) + "B swizzle";
  if (t.stages > 1) s += ", " + std::to_string(t.stages) + " stages of " + std::to_string(t.stageBytes()) + " bytes";
  return s;
}

void KernelPrinter::shared(const Op& o) {
  switch (o.kind) {
    case OpKind::LocalAlloc: {
      const Value* b = o.result();
      const std::string n = names_.of(b);
      buffers_[b->id] = n;
      line("unsigned char* const " + n + " = smem + " + std::to_string(o.offset) + ";  // " + describeBuffer(b) + ", " +
           std::to_string(b->type.sharedBytes()) + " bytes");
      return;
    }
    case OpKind::SharedSlot: {
      const Value* s = o.result();
      const std::string n = names_.of(s);
      buffers_[s->id] = n;
      line("unsigned char* const " + n + " = " + buffer(o.operands[0]) + " + " + scalar(o.operands[1]) + " * " +
           std::to_string(s->type.stageBytes()) + ";  // a stage of the ring");
      return;
    }
    default: break;
  }
  const bool store = o.kind == OpKind::SharedStore;
  const Value* v = store ? o.operands[0] : o.result();
  const Value* buf = store ? o.operands[1] : o.operands[0];
  const ElemType e = v->type.elem;
  const std::string et = type(e);
  const std::string readPtr = constType(e) + "*";  // reads through a pointer to const elements
  if (!v->type.isTile()) {
    if (store) line("if (threadIdx.x == 0) *reinterpret_cast<" + et + "*>(" + buffer(buf) + ") = " + scalar(v) + ";");
    else line(constDecl(e, names_.of(v)) + " = *reinterpret_cast<" + readPtr + ">(" + buffer(buf) + ");");
    return;
  }
  const Geo g = geo(v);
  const VecPlan vp = vecPlan(o.access, e, g);
  const std::string own = store ? owner(g) : std::string();
  const std::string addr = sharedAddress(v, buf, store && o.transposed, "reg");
  if (store) {
    if (!vp.ok) {
      loop(g.n, (own.empty() ? "" : "if (" + own + ") ") + "*reinterpret_cast<" + et + "*>(" + addr + ") = " + el(v, "reg") + ";");
      return;
    }
    line("// " + std::to_string(vp.vec) + " elements (" + std::to_string(vp.total) + " bytes) per shared-memory store");
    std::vector<std::string> body;
    packWords(body, v, e, vp, "word");
    body.push_back((own.empty() ? "" : "if (" + own + ") ") + "*reinterpret_cast<" + wordType(vp.total) + "*>(" + addr + ") = word;");
    vecLoop(g, vp, body);
    return;
  }
  if (!vp.ok) {
    const std::string n = array(v, "from shared memory");
    loop(g.n, n + "[reg] = *reinterpret_cast<" + readPtr + ">(" + addr + ");");
    return;
  }
  const std::string n = array(v, "from shared memory, " + std::to_string(vp.vec) + " elements per access");
  const std::string wt = wordType(vp.total);
  std::vector<std::string> body;
  body.push_back("const " + wt + " word = *reinterpret_cast<const " + wt + "*>(" + addr + ");");
  for (int s = 0; s < vp.vec; ++s) body.push_back(at(n, vp, s) + " = " + unpack(e, vp.total, s) + ";");
  vecLoop(g, vp, body);
}

}  // namespace tilecc::codegen
