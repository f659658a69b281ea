// Asynchronous copies and their synchronisation: cp.async into shared memory with commit
// groups and waits (sm_80), TMA boxes completing on mbarriers and the async-proxy fence
// (sm_90a). Who waits where was decided by the passes; this prints it.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

namespace tilecc::codegen {

namespace {

// The mbarrier `index` of an array (8 bytes each).
std::string mbarrierAt(const std::string& base, const std::string& index) {
  return index == "0" ? base : base + " + 8 * (" + index + ")";
}

}  // namespace

void KernelPrinter::async(const Op& o) {
  switch (o.kind) {
    case OpKind::AsyncCopy: {
      const Value* ptrs = o.operands[0];
      const Value* buf = o.operands[1];
      const Value* mask = o.operands[2];
      const Value* pred = o.operands[3];
      const Geo g = geo(ptrs);
      const int eb = buf->type.elem.bytes();
      const int vec = o.access.vec;
      const int axis = o.access.axis < 0 ? ptrs->type.rank() - 1 : o.access.axis;
      if (vec * eb != 4 && vec * eb != 8 && vec * eb != 16) internalError("cp.async of " + std::to_string(vec * eb) + " bytes in " + k_.name);
      VecPlan vp;
      vp.ok = vec > 1;
      vp.vec = vec;
      accessNote(o, "load", buf->type.elem, vp, ", copied to shared memory ahead by cp.async");
      std::vector<std::string> conds;
      if (vec > 1) conds.push_back("(" + digit(g, axis, "reg") + ") % " + std::to_string(vec) + " == 0");
      const std::string own = owner(g);
      if (!own.empty()) conds.push_back(own);
      std::string p;
      if (!isTrue(pred)) p = scalar(pred);
      if (!isTrue(mask)) p += (p.empty() ? "" : " && ") + el(mask, "reg");
      if (p.empty()) p = "true";
      std::string cond;
      for (const auto& c : conds) cond += (cond.empty() ? "" : " && ") + c;
      line("#pragma unroll");
      line("for (int reg = 0; reg < " + std::to_string(g.n) + "; ++reg)");
      line("  " + (cond.empty() ? "" : "if (" + cond + ") ") + "tilecc::cp_async" + std::to_string(vec * eb) + "(" +
           sharedAddress(ptrs, buf, o.transposed, "reg") + ", " + el(ptrs, "reg") + ", " + p + ");");
      return;
    }
    case OpKind::AsyncCommit: line("tilecc::cp_async_commit();"); return;
    case OpKind::AsyncWait:
      line("tilecc::cp_async_wait<" + std::to_string(o.count) + ">();  // " +
           (o.count == 0 ? std::string("every copy of this thread has landed") : "at most " + std::to_string(o.count) + (o.count == 1 ? " group" : " groups") + " still in flight"));
      return;
    case OpKind::ProxyFence: line("tilecc::fence_proxy_async();  // shared-memory stores become visible to TMA and wgmma"); return;
    case OpKind::MBarrierInit:
      line("if (threadIdx.x == 0)");
      line("  for (int i = 0; i < " + std::to_string(o.operands[0]->type.stages) + "; ++i) tilecc::mbarrier_init(" +
           buffer(o.operands[0]) + " + 8 * i, " + std::to_string(o.count) + ");");
      line("tilecc::fence_mbarrier_init();");
      return;
    case OpKind::MBarrierExpectTx:
      line("if (" + elected_ + ") tilecc::mbarrier_arrive_expect_tx(" + mbarrierAt(buffer(o.operands[0]), scalar(o.operands[1])) +
           ", " + std::to_string(o.count) + ");");
      return;
    case OpKind::MBarrierArrive:  // one arrival per warp
      line("if (" + lane() + " == 0) tilecc::mbarrier_arrive(" + mbarrierAt(buffer(o.operands[0]), scalar(o.operands[1])) + ");");
      return;
    case OpKind::MBarrierWait:
      line("tilecc::mbarrier_wait(" + mbarrierAt(buffer(o.operands[0]), scalar(o.operands[1])) + ", " + scalar(o.operands[2]) + ");");
      return;
    case OpKind::TmaLoad: {
      // (desc, buffer, mbarriers, index, coords..., im2col offsets...)
      // Coordinates and offsets innermost first, as the descriptor orders its axes; panel p of a
      // swizzled buffer starts after p panels of every row.
      const std::size_t offsets = o.axis > 0 ? static_cast<std::size_t>(o.axis) : 0;
      const std::size_t end = o.operands.size() - offsets;
      std::string coords;
      for (std::size_t i = end; i-- > 4;) coords += ", " + scalar(o.operands[i]);
      for (std::size_t i = o.operands.size(); i-- > end;) coords += ", " + scalar(o.operands[i]);
      const Value* buf = o.operands[1];
      const std::int64_t rows = buf->type.shape.empty() ? 1 : buf->type.shape[0];
      const std::string dst = o.count ? buffer(buf) + " + " + std::to_string(o.count * rows * buf->type.smem.swizzle) : buffer(buf);
      line("if (" + elected_ + ") tilecc::tma_load_" + std::string(offsets ? "im2col_" : "") + std::to_string(end - 4) + "d(" + dst +
           ", &" + names_.of(o.operands[0]) + ", " + mbarrierAt(buffer(o.operands[2]), scalar(o.operands[3])) + coords + ");");
      return;
    }
    case OpKind::TmaStore: {
      // Coordinates innermost first, as for tma_load; panel p starts after p panels of every row.
      std::string coords;
      for (std::size_t i = o.operands.size(); i-- > 2;) coords += ", " + scalar(o.operands[i]);
      const Value* buf = o.operands[1];
      const std::int64_t rows = buf->type.shape.empty() ? 1 : buf->type.shape[0];
      const std::string src = o.count ? buffer(buf) + " + " + std::to_string(o.count * rows * buf->type.smem.swizzle) : buffer(buf);
      line("if (" + elected_ + ") {");
      line("  tilecc::tma_store_" + std::to_string(o.operands.size() - 2) + "d(&" + names_.of(o.operands[0]) + ", " + src + coords + ");");
      line("  tilecc::tma_store_commit();");
      line("}");
      return;
    }
    case OpKind::TmaStoreWait: line("if (" + elected_ + ") tilecc::tma_store_wait<" + std::to_string(o.count) + ">();"); return;
    default: internalError(std::string("no async printing for ") + name(o.kind));
  }
}

}  // namespace tilecc::codegen
