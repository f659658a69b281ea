// mma: the accumulator (an mma layout: m16n8 tiles per warp) is updated from A and B in
// shared memory, k step by k step: this warp's A fragments (one ldmatrix.x4 per m16 rows) and
// B fragments (ldmatrix, .trans when B is [K][N]), then every m16n8 product with mma.sync.
// IEEE fp32 has no tensor-core path: multiply, then add, k ascending, as the host twin does.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

namespace tilecc::codegen {

void KernelPrinter::mma(const Op& o) {
  const Value* a = o.operands[0];
  const Value* b = o.operands[1];
  const Value* acc = o.operands[2];
  const Value* r = o.result();
  const Geo gr = geo(r);
  if (!isMmaLayout(*gr.l)) internalError("mma result outside an mma layout in " + k_.name);
  const bool aT = o.transposedA;  // A as [K][M] (16-bit types only)
  const int M = a->type.shape[aT ? 1 : 0], K = a->type.shape[aT ? 0 : 1];
  const int N = o.transposed ? b->type.shape[0] : b->type.shape[1];
  const int eb = a->type.elem.bytes();
  const bool bT = o.transposed;
  const int pitchA = a->type.smem.pitch, pitchB = b->type.smem.pitch;
  const std::string rn = array(r, "mma accumulator");
  loop(gr.n, rn + "[reg] = " + el(acc, "reg") + ";");
  line("{");
  ++indent_;
  line("// A " + names_.of(a) + (aT ? " transposed [" + std::to_string(K) + "][" + std::to_string(M) + "]" : " [" + std::to_string(M) + "][" + std::to_string(K) + "]") + ", B " + names_.of(b) +
       (bT ? " transposed [" + std::to_string(N) + "][" + std::to_string(K) + "]" : " [" + std::to_string(K) + "][" + std::to_string(N) + "]"));
  line("const unsigned char* const dot_a = " + buffer(a) + ";");
  line("const unsigned char* const dot_b = " + buffer(b) + ";");
  const int regs1 = gr.ax[1].regs;
  if (o.instr == MmaInstr::FmaIEEE) {
    const std::string aAt = "*reinterpret_cast<const float*>(dot_a + (" + coord(gr, 0, "reg") + ") * " + std::to_string(pitchA) + " + kk * 4)";
    const std::string bAt = "*reinterpret_cast<const float*>(dot_b + kk * " + std::to_string(pitchB) + " + (" + coord(gr, 1, "reg") + ") * 4)";
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(gr.n) + "; ++reg) {");
    ++indent_;
    line("float acc_k = " + rn + "[reg];");
    line("for (int kk = 0; kk < " + std::to_string(K) + "; ++kk) acc_k = __fadd_rn(acc_k, __fmul_rn(" + aAt + ", " + bAt + "));");
    line(rn + "[reg] = acc_k;");
    --indent_;
    line("}");
  } else {
    const Layout& l = *gr.l;
    const int wm = l.wpc[0], wn = l.wpc[1];
    const std::string ln = lane();
    const std::string li = "L" + std::to_string(r->layout);
    const std::string wmName = wm == 1 ? "0" : declare(li + "_wm", "const int " + li + "_wm = " + bits(warp(), wn, wm, k_.numWarps) + ";  // warp row of " + li);
    const std::string wnName = wn == 1 ? "0" : declare(li + "_wn", "const int " + li + "_wn = " + bits(warp(), 1, wn, k_.numWarps) + ";  // warp column of " + li);
    const bool s8 = o.instr == MmaInstr::S8;
    const int kBytes = s8 ? 16 : 32;  // one mma's k extent in bytes
    const int kSteps = K * eb / kBytes;
    const int aRegs = s8 ? 2 : 4, bRegs = s8 ? 1 : 2;
    const std::string fn = o.instr == MmaInstr::F16    ? "mma_f16"
                           : o.instr == MmaInstr::BF16 ? "mma_bf16"
                           : o.instr == MmaInstr::TF32 ? "mma_tf32"
                                                       : "mma_s8";
    const int mTiles = gr.ax[0].regs / 2, nTiles = regs1 / 2;
    line("// " + std::to_string(mTiles * nTiles) + " m16n8 tiles per warp, " + std::to_string(kSteps) + " k steps of " +
         std::to_string(kBytes / eb) + " (" + fn + ")");
    line("#pragma unroll");
    line("for (int ks = 0; ks < " + std::to_string(kSteps) + "; ++ks) {");
    ++indent_;
    line("unsigned frag_a[" + std::to_string(mTiles) + "][" + std::to_string(aRegs) + "], frag_b[" + std::to_string(nTiles) + "][" +
         std::to_string(bRegs) + "];");
    // Lane l points at row l % 8 of matrix l / 8: matrices alternate the two 8-row groups of
    // an m16 tile, then step 16 bytes along k. A as [K][M]: lane l points at k row l % 8 of
    // that matrix (8 k rows further for l >= 16), 16 bytes of m, read transposed.
    line("#pragma unroll");
    line("for (int mi = 0; mi < " + std::to_string(mTiles) + "; ++mi)");
    const std::string mGroup = "8 * (" + wmName + " + " + std::to_string(wm) + " * (2 * mi + ((" + ln + " >> 3) & 1)))";
    if (aT)
      line("  tilecc::ldmatrix_x4_trans(frag_a[mi], dot_a + (ks * 16 + (" + ln + " >> 4) * 8 + (" + ln + " & 7)) * " + std::to_string(pitchA) +
           " + (" + mGroup + ") * 2);");
    else
      line("  tilecc::ldmatrix_x" + std::to_string(aRegs) + "(frag_a[mi], dot_a + (" + mGroup + " + (" + ln + " & 7)) * " +
           std::to_string(pitchA) + " + ks * " + std::to_string(kBytes) + (s8 ? "" : " + (" + ln + " >> 4) * 16") + ");");
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
      line("  unsigned frag_pair[4];");
      line(std::string("  tilecc::ldmatrix_x4") + (bT ? "" : "_trans") + "(frag_pair, " + bAddress("(ni + (" + ln + " >> 4))") + ");");
      line("  frag_b[ni][0] = frag_pair[0];");
      line("  frag_b[ni][1] = frag_pair[1];");
      line("  frag_b[ni + 1][0] = frag_pair[2];");
      line("  frag_b[ni + 1][1] = frag_pair[3];");
      line("}");
    } else {
      line("for (int ni = 0; ni < " + std::to_string(nTiles) + "; ++ni)");
      line("  tilecc::ldmatrix_x" + std::to_string(bRegs) + (bT ? "" : "_trans") + "(frag_b[ni], " + bAddress("ni") + ");");
    }
    line("#pragma unroll");
    line("for (int mi = 0; mi < " + std::to_string(mTiles) + "; ++mi) {");
    line("  #pragma unroll");
    line("  for (int ni = 0; ni < " + std::to_string(nTiles) + "; ++ni)");
    const std::string c0 = rn + "[(2 * mi) * " + std::to_string(regs1) + " + 2 * ni]";
    const std::string c1 = rn + "[(2 * mi) * " + std::to_string(regs1) + " + 2 * ni + 1]";
    const std::string c2 = rn + "[(2 * mi + 1) * " + std::to_string(regs1) + " + 2 * ni]";
    const std::string c3 = rn + "[(2 * mi + 1) * " + std::to_string(regs1) + " + 2 * ni + 1]";
    line("    tilecc::" + fn + "(" + c0 + ", " + c1 + ", " + c2 + ", " + c3 + ", frag_a[mi], frag_b[ni]);");
    line("}");
    --indent_;
    line("}");
  }
  --indent_;
  line("}");
}

}  // namespace tilecc::codegen
