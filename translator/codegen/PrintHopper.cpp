// sm_90a warp groups: regions run by some warps (warp specialisation), register reallocation,
// and the wgmma group waits. wgmma itself prints once its accumulator layout (each warp 16
// rows of a 64-row block) is part of the layout model.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

namespace tilecc::codegen {

void KernelPrinter::hopper(const Op& o) {
  switch (o.kind) {
    case OpKind::WarpGroup: {
      line("if (" + warp() + " >= " + std::to_string(o.firstWarp) + " && " + warp() + " < " + std::to_string(o.firstWarp + o.numWarps) +
           ") {  // warps " + std::to_string(o.firstWarp) + ".." + std::to_string(o.firstWarp + o.numWarps - 1));
      ++indent_;
      const std::string saved = elected_;
      elected_ = "threadIdx.x == " + std::to_string(o.firstWarp * 32);
      block(*o.regions[0]);
      elected_ = saved;
      --indent_;
      line("}");
      return;
    }
    case OpKind::SetMaxNReg:
      line(std::string("tilecc::setmaxnreg_") + (o.increase ? "inc" : "dec") + "<" + std::to_string(o.regs) + ">();");
      return;
    case OpKind::WgmmaWait: {
      line("tilecc::wgmma_wait<" + std::to_string(o.count) + ">();");
      for (std::size_t i = 0; i < o.operands.size(); ++i) {
        views_[o.results[i]->id] = view(o.operands[i]);
        names_.alias(o.results[i], o.operands[i]);
      }
      return;
    }
    case OpKind::Wgmma: unsupported(o, "wgmma is not printed yet: the warpgroup accumulator layout is not in the layout model");
    default: internalError(std::string("no hopper printing for ") + name(o.kind));
  }
}

}  // namespace tilecc::codegen
