// Reductions: in each thread (increasing coordinates), across lanes (a butterfly of shuffles),
// then across warps through the scratch buffer makeSharedExplicit gave the op.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

namespace tilecc::codegen {

void KernelPrinter::reduce(const Op& o) {
  const Value* x = o.operands[0];
  const Value* r = o.result();
  const ReduceKind rk = o.reduce;
  const bool arg = rk == ReduceKind::ArgMax || rk == ReduceKind::ArgMin;
  const int axis = o.axis;
  const Geo gx = geo(x);
  const auto& ax = gx.ax[static_cast<std::size_t>(axis)];
  const int p = ax.parentDim;
  const Layout& l = *gx.l;
  const ReduceGeom rg = reduceGeom(l, x->type.shape, axis);
  if ((rg.warps > 1) != (o.operands.size() == 2)) internalError("a reduction across warps without its scratch buffer in " + k_.name);
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
    std::string idx;
    for (auto& t : terms) idx += (idx.empty() ? "" : " + ") + t;
    return idx.empty() ? std::string("0") : idx;
  };

  const std::string n = names_.of(r);
  const std::string part = r->type.isTile() ? n : names_.fresh(n + "_part");
  const std::string idxName = arg ? names_.fresh(n + "_idx") : std::string();
  line("// " + std::string(name(rk)) + " along axis " + std::to_string(axis) + ": in-thread, then lanes (shuffles)" +
       std::string(rg.warps > 1 ? ", then warps (shared memory)" : ""));
  // An argmax/argmin over one element per thread, lane and warp compares nothing: it needs no
  // values (nvcc would warn about a variable set but never used).
  const bool values = !arg || ax.regs > 1 || rg.lanes > 1 || rg.warps > 1;
  if (r->type.isTile())
    line(ct + " " + part + "[" + std::to_string(rn) + "];  // " + toString(r->type) + " in L" + std::to_string(r->layout));
  else if (values)
    line(ct + " " + part + "[1];");
  if (arg) line("int " + idxName + "[" + std::to_string(rn) + "];");
  // 1. within the thread, in increasing coordinate order
  const std::string c0 = coord(gx, axis, "0");
  line("#pragma unroll");
  line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg) {");
  ++indent_;
  if (values) line(part + "[reg] = " + val(inputReg("reg", "0")) + ";");
  if (arg) line(idxName + "[reg] = " + c0 + ";");
  if (ax.regs > 1) {
    line("#pragma unroll");
    line("for (int reg2 = 1; reg2 < " + std::to_string(ax.regs) + "; ++reg2) {");
    ++indent_;
    if (arg) {
      line("const " + ct + " cand = " + val(inputReg("reg", "reg2")) + ";");
      line("const int cand_i = " + coord(gx, axis, inputReg("0", "reg2")) + ";");
      line("if (" + better + "(cand, cand_i, " + part + "[reg], " + idxName + "[reg])) { " + part + "[reg] = cand; " + idxName +
           "[reg] = cand_i; }");
    } else {
      line(part + "[reg] = " + combine(part + "[reg]", val(inputReg("reg", "reg2"))) + ";");
    }
    --indent_;
    line("}");
  }
  --indent_;
  line("}");
  // 2. across lanes: butterfly over the lanes that hold distinct elements of the axis
  if (rg.lanes > 1) {
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg) {");
    ++indent_;
    for (int off = 1; off < rg.lanes; off *= 2) {
      const std::string m = std::to_string(off * rg.laneStride);
      if (arg) {
        line("{");
        ++indent_;
        line("const " + ct + " cand = __shfl_xor_sync(0xffffffffu, " + part + "[reg], " + m + ");");
        line("const int cand_i = __shfl_xor_sync(0xffffffffu, " + idxName + "[reg], " + m + ");");
        line("if (" + better + "(cand, cand_i, " + part + "[reg], " + idxName + "[reg])) { " + part + "[reg] = cand; " + idxName +
             "[reg] = cand_i; }");
        --indent_;
        line("}");
      } else {
        // The shuffle is a statement of its own: inside min/max's conditional expression only
        // some lanes would execute it, and every lane of the mask must (undefined otherwise:
        // stale values, or a hang).
        line("{");
        line("  const " + ct + " other = __shfl_xor_sync(0xffffffffu, " + part + "[reg], " + m + ");");
        line("  " + part + "[reg] = " + combine(part + "[reg]", "other") + ";");
        line("}");
      }
    }
    --indent_;
    line("}");
  }
  // 3. across warps, through the scratch buffer
  if (rg.warps > 1) {
    const int tpw = l.tpw[static_cast<std::size_t>(p)];
    long long outN = 1;
    for (int d : rshape) outN *= d;
    const std::string wp = bits(warp(), rg.warpStride, l.wpc[static_cast<std::size_t>(p)], k_.numWarps);
    const std::string lp = tpw > 1 ? bits(lane(), rg.laneStride, tpw, 32) : "0";
    // Flat output coordinate of result register j: coordinates along the other axes.
    std::string oidx;
    {
      long long pitch = 1;
      for (int a = x->type.rank() - 1; a >= 0; --a) {
        if (a == axis) continue;
        const std::string c = coord(gx, a, inputReg("reg", "0"));
        if (c != "0") oidx = (oidx.empty() ? "" : oidx + " + ") + (pitch == 1 ? "(" + c + ")" : "(" + c + ") * " + std::to_string(pitch));
        pitch *= x->type.shape[static_cast<std::size_t>(a)];
      }
      if (oidx.empty()) oidx = "0";
    }
    auto slot = [&](const std::string& w) {
      const std::string b = outN == 1 ? w : w + " * " + std::to_string(outN);
      return oidx == "0" ? b : b + " + " + oidx;
    };
    std::vector<std::string> conds;
    if (lp != "0") conds.push_back(lp + " == 0");
    if (rg.warps < l.wpc[static_cast<std::size_t>(p)]) conds.push_back(wp + " < " + std::to_string(rg.warps));
    const std::string others = owner(gx, p);
    if (!others.empty()) conds.push_back(others);
    std::string writer;
    for (auto& c : conds) writer += (writer.empty() ? "" : " && ") + c;
    if (writer.empty()) writer = "true";
    line("{");
    ++indent_;
    line(ct + "* pbuf = reinterpret_cast<" + ct + "*>(" + buffer(o.operands[1]) + ");");
    // The indices after the values, at a 4-byte boundary (values of 1 or 2 bytes end anywhere).
    if (arg)
      line("int* ibuf = reinterpret_cast<int*>(" + buffer(o.operands[1]) + " + " +
           std::to_string((rg.warps * outN * ce.bytes() + 3) / 4 * 4) + ");");
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg)");
    line("  if (" + writer + ") {");
    line("    pbuf[" + slot(wp) + "] = " + part + "[reg];");
    if (arg) line("    ibuf[" + slot(wp) + "] = " + idxName + "[reg];");
    line("  }");
    line(ctaSync_ + ";  // every warp's partial results are written");
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg) {");
    ++indent_;
    line(part + "[reg] = pbuf[" + oidx + "];");
    if (arg) line(idxName + "[reg] = ibuf[" + oidx + "];");
    line("for (int other_warp = 1; other_warp < " + std::to_string(rg.warps) + "; ++other_warp) {");
    ++indent_;
    if (arg) {
      line("const " + ct + " cand = pbuf[" + slot("other_warp") + "];");
      line("const int cand_i = ibuf[" + slot("other_warp") + "];");
      line("if (" + better + "(cand, cand_i, " + part + "[reg], " + idxName + "[reg])) { " + part + "[reg] = cand; " + idxName +
           "[reg] = cand_i; }");
    } else {
      line(part + "[reg] = " + combine(part + "[reg]", "pbuf[" + slot("other_warp") + "]") + ";");
    }
    --indent_;
    line("}");
    --indent_;
    line("}");
    --indent_;
    line("}");
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
    const std::string out = names_.fresh(n + "_v");
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

}  // namespace tilecc::codegen
