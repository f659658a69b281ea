// sm_90a: wgmma from swizzled shared memory through descriptors, its group waits, regions run
// by some warps (warp specialisation) and register reallocation.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

#include <algorithm>

namespace tilecc::codegen {

void KernelPrinter::hopper(const Op& o) {
  switch (o.kind) {
    case OpKind::WarpGroup: {
      // Warp specialisation's roles are the two branches of one if/else: ptxas follows
      // setmaxnreg only there. Named barrier 0 is __syncthreads'; each region gets its own.
      const int first = o.firstWarp, end = o.firstWarp + o.numWarps;
      const int all = k_.numWarps + k_.producerWarps;
      const std::string cond = first == 0 ? warp() + " < " + std::to_string(end) : warp() + " >= " + std::to_string(first) + " && " + warp() + " < " + std::to_string(end);
      const std::string savedElected = elected_, savedSync = ctaSync_;
      auto region = [&](const Block& b, int from, int warps, int id) {
        ++indent_;
        elected_ = "threadIdx.x == " + std::to_string(from * 32);
        ctaSync_ = "tilecc::named_barrier_sync(" + std::to_string(id) + ", " + std::to_string(warps * 32) + ")";
        block(b);
        --indent_;
      };
      line("if (" + cond + ") {  // " + (o.numWarps == 1 ? "warp " + std::to_string(first) : "warps " + std::to_string(first) + ".." + std::to_string(end - 1)));
      region(*o.regions[0], first, o.numWarps, ++namedBarriers_);
      if (o.regions.size() > 1) {
        if (first != 0) internalError("a warp group's other warps must follow it in " + k_.name);
        line("} else {  // warps " + std::to_string(end) + ".." + std::to_string(all - 1));
        region(*o.regions[1], end, all - end, ++namedBarriers_);
      }
      elected_ = savedElected;
      ctaSync_ = savedSync;
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
        // An accumulator the loop kept in flight: its registers are read only after this wait.
        if (o.count == 0 && o.operands[i]->def && o.operands[i]->def->kind == OpKind::For) {
          loop(geo(o.operands[i]).n, "tilecc::fence_operand(" + el(o.operands[i], "reg") + ");");
          loop(geo(o.operands[i]).n, "tilecc::wgmma_settle(" + el(o.operands[i], "reg") + ");");
        }
      }
      return;
    }
    case OpKind::Wgmma: return wgmma(o);
    default: internalError(std::string("no hopper printing for ") + name(o.kind));
  }
}

namespace {

// The wgmma descriptors' byte offsets (PTX ISA, "Canonical Layouts", in bytes for a swizzle of
// S): K-major operands step 8 rows (8·S bytes) along M or N and read K inside a panel;
// MN-major ones step 8 rows of K (8·S bytes) and one panel of S bytes along M or N.
struct DescOffsets {
  int leading, stride;
};
DescOffsets kMajor(int swizzle) { return {16, 8 * swizzle}; }  // leading: unused, 1 by convention
DescOffsets mnMajor(int swizzle, int rows) { return {rows * swizzle, 8 * swizzle}; }

}  // namespace

// wgmma: per k step of 16 and per 64-row block this warp group owns, one m64nNk16 wgmma into
// that block's accumulator registers; A [M][K] and B ([K][N] or [N][K]) lie in swizzled
// panels, addressed by descriptors that step 32 bytes along K inside a panel. The batch is
// committed as one group; the wgmma_wait that follows in the IR waits for it.
void KernelPrinter::wgmma(const Op& o) {
  const Value* a = o.operands[0];
  const Value* b = o.operands[1];
  const Value* acc = o.operands[2];
  const Value* r = o.result();
  const Geo gr = geo(r);
  if (!isWgmmaLayout(*gr.l)) internalError("wgmma outside its accumulator layout in " + k_.name);
  // A in registers: in the accumulator layout (MakeSharedExplicit checks), four 32-bit registers
  // of two 16-bit values per k step of 16 and 64-row block, as its fragment wants them.
  const bool aRegs = !a->type.isShared();
  if (aRegs && (*geo(a).l != *gr.l || a->type.elem.bytes() != 2)) internalError("wgmma with A in registers outside its layout in " + k_.name);
  const bool aT = o.transposedA;  // A as [K][M] (M-major); else [M][K] (K-major)
  const int M = a->type.shape[aT ? 1 : 0], K = a->type.shape[aT ? 0 : 1];
  const bool bT = o.transposed;  // B as [N][K] (K-major); else [K][N] (N-major)
  const int N = bT ? b->type.shape[0] : b->type.shape[1];
  const int eb = a->type.elem.bytes();
  const int W = gr.l->wpc[0], groups = W / 4;
  const int blocks = M / (16 * W);  // 64-row blocks per warp group
  const int regs1 = gr.ax[1].regs;  // N / 4
  const int sa = aRegs ? 128 : a->type.smem.swizzle, sb = b->type.smem.swizzle;
  const int regsA1 = aRegs ? geo(a).ax[1].regs : 0;  // K / 4
  const DescOffsets da = aT ? mnMajor(sa, K) : kMajor(sa), db = bT ? kMajor(sb) : mnMajor(sb, K);
  // M-major A: a warp group's 64-row block is whole panels of S bytes along M.
  if (aT && (64 * eb) % sa != 0) internalError("an M-major wgmma A whose 64-row blocks split a swizzle panel in " + k_.name);
  auto aPanels = [&](int rows) { return rows * eb / sa * K * sa; };  // bytes from row 0 to row `rows` of M-major A
  // A carried accumulator used only here is updated in place: a register copy would read
  // registers that the previous iteration's wgmma may still be writing (kept in flight).
  std::string rn;
  const bool carried = acc->owner && acc->owner->parent && acc->owner->parent->kind == OpKind::For;
  const auto us = users_.find(acc);
  const View av = view(acc);
  // An accumulator of zeros is never copied into registers: each block's first wgmma runs with
  // scale-d = 0 (D = A·B) and only writes them. Zeroing moves are not free: ptxas usually folds
  // them into the first wgmma, but in attention's key loop nested in a tile loop it kept all 64
  // per batch (H100 SASS: 756 instructions in the loop, 692 without them).
  const Op* init = acc->type.isTile() ? scalarConstant(acc) : nullptr;
  const bool zero = init && init->floatValue == 0.0;
  if (zero) {
    rn = array(r, "wgmma accumulator, written by the first k step");
  } else if (carried && acc->layout == r->layout && us != users_.end() && us->second.size() == 1 && !av.scalar && av.strides == gr.rstride) {
    views_[r->id] = av;
    names_.alias(r, acc);
    rn = av.base;
  } else {
    rn = array(r, "wgmma accumulator");
    loop(gr.n, rn + "[reg] = " + el(acc, "reg") + ";");
    // With several 64-row blocks per warp group, each register holds its own value before the
    // fence: otherwise nvcc may share one zero among them and copy it into a later block's
    // registers between the wgmmas (ptxas then injects waits: C7519/C7517).
    if (blocks > 1) loop(gr.n, "tilecc::fence_operand(" + rn + "[reg]);");
  }
  line("{");
  ++indent_;
  line("// A " + names_.of(a) + (aT ? " [" + std::to_string(K) + "][" + std::to_string(M) + "] M-major" : " [" + std::to_string(M) + "][" + std::to_string(K) + "]" + (aRegs ? " in registers" : " K-major")) + ", B " + names_.of(b) +
       (bT ? " [" + std::to_string(N) + "][" + std::to_string(K) + "] K-major" : " [" + std::to_string(K) + "][" + std::to_string(N) + "] N-major") +
       "; " + std::to_string(K / 16) + " k steps x " + std::to_string(blocks) + " m64n" + std::to_string(N) + "k16 per warp group");
  if (!aRegs) line("const unsigned char* const dot_a = " + buffer(a) + ";");
  // A's registers, packed before the fence (a register written after it would make ptxas
  // insert another: C7519). Per k step and 64-row block: a0 rows r, columns 16ks + 2t, +1;
  // a1 rows r + 8; a2, a3 columns + 8 (n8 groups 2ks and 2ks + 1 of the accumulator layout).
  auto aReg = [&](int ks, int blk, int i) { return (ks * blocks + blk) * 4 + i; };
  if (aRegs) {
    line("unsigned dot_a[" + std::to_string(K / 16 * blocks * 4) + "];  // A in wgmma's register fragment");
    for (int ks = 0; ks < K / 16; ++ks)
      for (int blk = 0; blk < blocks; ++blk)
        for (int i = 0; i < 4; ++i) {
          const int idx = (blk * 2 + i % 2) * regsA1 + (2 * ks + i / 2) * 2;
          line("dot_a[" + std::to_string(aReg(ks, blk, i)) + "] = tilecc::pack2(" + el(a, std::to_string(idx)) + ", " +
               el(a, std::to_string(idx + 1)) + ");");
        }
  }
  line("const unsigned char* const dot_b = " + buffer(b) + ";");
  // Row of this warp group's first 64-row block; block i is 16·W rows further.
  const std::string group = groups == 1 ? "0" : bits(warp(), 4, groups, k_.numWarps);
  // One descriptor per operand and batch; a k step's or block's operand adds its byte offset
  // >> 4 to the start-address field (bits 0-13, the address >> 4: no carry, shared addresses
  // stay below 2^18), instead of rebuilding the descriptor from the address.
  const std::string aBase = group == "0" ? "dot_a" : "dot_a + " + std::to_string(aT ? aPanels(64) : 64 * sa) + " * " + group;
  if (!aRegs)
    line("const std::uint64_t desc_a = tilecc::wgmma_desc<" + std::to_string(sa) + ">(" + aBase + ", " + std::to_string(da.leading) + ", " +
         std::to_string(da.stride) + ");");
  line("const std::uint64_t desc_b = tilecc::wgmma_desc<" + std::to_string(sb) + ">(dot_b, " + std::to_string(db.leading) + ", " +
       std::to_string(db.stride) + ");");
  auto plus = [](const std::string& d, int bytes) { return bytes ? d + " + " + std::to_string(bytes / 16) : d; };
  line("tilecc::wgmma_fence();  // the accumulators' registers are ready for the asynchronous wgmma");
  const std::string type = o.instr == MmaInstr::F16 ? "f16" : "bf16";
  for (int ks = 0; ks < K / 16; ++ks) {
    const int kb = ks * 16 * eb;  // byte along K
    // B: K-major reads bytes kb.. of every row (panel kb / S); N-major starts at row 16·ks.
    const int bOffset = bT ? kb / sb * N * sb + kb % sb : 16 * ks * sb;
    for (int blk = 0; blk < blocks; ++blk) {
      // A: the panel of byte kb, the block's first row (this warp group's 64 rows further on).
      // M-major: row 16·ks of K, the block's panels along M.
      const int aOffset = aT ? 16 * ks * sa + aPanels(blk * 16 * W) : kb / sa * M * sa + kb % sa + blk * 16 * W * sa;
      // Output operand i is d[i] of the PTX fragment: n8 column group i / 4, row half (i / 2) % 2.
      const int n = N / 2;
      const bool first = zero && ks == 0;  // scale-d = 0: the registers are outputs only
      std::string regs;
      for (int i = 0; i < n; ++i) regs += (i ? ", %" : "%") + std::to_string(i);
      // Inputs after the n outputs: A (a descriptor, or four registers), B's descriptor, scale-d.
      const int ins = aRegs ? 5 : 2;
      const std::string aOperand = aRegs ? "{%" + std::to_string(n) + ", %" + std::to_string(n + 1) + ", %" + std::to_string(n + 2) + ", %" +
                                               std::to_string(n + 3) + "}"
                                         : "%" + std::to_string(n);
      line("asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" + std::to_string(n + ins) + ", 0;\\n\"");
      line("             \"wgmma.mma_async.sync.aligned.m64n" + std::to_string(N) + "k16.f32." + type + "." + type + " {" + regs + "}, " +
           aOperand + ", %" + std::to_string(n + ins - 1) + ", p, 1, 1, " + (aRegs ? "" : aT ? "1, " : "0, ") + (bT ? "0" : "1") + ";\\n}\\n\"");
      for (int i = 0; i < n; i += 8) {
        std::string outs;
        for (int j = i; j < std::min(n, i + 8); ++j) {
          const int idx = (blk * 2 + (j / 2) % 2) * regs1 + (j / 4) * 2 + j % 2;
          outs += std::string(j > i ? ", " : "") + (first ? "\"=f\"(" : "\"+f\"(") + rn + "[" + std::to_string(idx) + "])";
        }
        line(std::string(i == 0 ? "             : " : "               ") + outs + (i + 8 < n ? "," : ""));
      }
      if (aRegs) {
        std::string as;
        for (int i = 0; i < 4; ++i) as += std::string(i ? ", " : "") + "\"r\"(dot_a[" + std::to_string(aReg(ks, blk, i)) + "])";
        line("             : " + as + ",");
      } else {
        line("             : \"l\"(" + plus("desc_a", aOffset) + "),");
      }
      line("               \"l\"(" + plus("desc_b", bOffset) + "),");
      line(std::string("               \"n\"(") + (first ? "0" : "1") + "));");
    }
  }
  line("tilecc::wgmma_commit();");
  --indent_;
  line("}");
}

}  // namespace tilecc::codegen
