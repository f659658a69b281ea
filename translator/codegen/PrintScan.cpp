// Scans (and reductions whose combine may not commute: custom and product) along an axis of a
// tile held in registers. A thread's elements along the axis come in `chunks` runs of `spt`
// consecutive elements, one pass of all threads apart, so the element order interleaves the
// threads: each run is scanned in the thread, then the run totals across the lanes along the
// axis (Kogge-Stone with shuffles), then across the warps through the scratch buffer; each
// element finally takes, in order, the totals of the earlier runs, of the earlier warps and of
// the earlier lanes. Combines are applied in element order only, never commuted.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

namespace tilecc::codegen {

namespace {

// __shfl_*_sync has no 8-bit or bool overloads: those go through int.
std::string shfl(const std::string& fn, ElemType e, const std::string& t, const std::string& x, const std::string& arg) {
  const bool narrow = e.kind == Scalar::I8 || e.kind == Scalar::U8 || e.isBool();
  const std::string v = narrow ? "static_cast<int>(" + x + ")" : x;
  const std::string call = fn + "(0xffffffffu, " + v + ", " + arg + ")";
  return narrow ? "static_cast<" + t + ">(" + call + ")" : call;
}

}  // namespace

std::string KernelPrinter::axisReg(const Geo& g, int axis, const std::string& j, const std::string& d) {
  int rn = 1;
  for (int a = 0; a < static_cast<int>(g.shape.size()); ++a)
    if (a != axis) rn *= g.ax[static_cast<std::size_t>(a)].regs;
  int rs = 1;
  std::vector<std::string> terms;
  for (int a = static_cast<int>(g.shape.size()) - 1; a >= 0; --a) {
    if (a == axis) continue;
    const int regs = g.ax[static_cast<std::size_t>(a)].regs;
    if (regs > 1) {
      std::string dd = rs == 1 ? j : "(" + j + " / " + std::to_string(rs) + ")";
      if (rs * regs != rn) dd = "(" + dd + " % " + std::to_string(regs) + ")";
      const int s = g.rstride[static_cast<std::size_t>(a)];
      terms.push_back(s == 1 ? dd : dd + " * " + std::to_string(s));
    }
    rs *= regs;
  }
  if (d != "0") {
    const int s = g.rstride[static_cast<std::size_t>(axis)];
    terms.push_back(s == 1 ? "(" + d + ")" : "(" + d + ") * " + std::to_string(s));
  }
  std::string idx;
  for (auto& t : terms) idx += (idx.empty() ? "" : " + ") + t;
  return idx.empty() ? std::string("0") : idx;
}

std::string KernelPrinter::rowIndex(const Geo& g, int axis, const std::string& j) {
  std::string idx;
  long long pitch = 1;
  for (int a = static_cast<int>(g.shape.size()) - 1; a >= 0; --a) {
    if (a == axis) continue;
    const std::string c = coord(g, a, axisReg(g, axis, j, "0"));
    if (c != "0") idx = (idx.empty() ? "" : idx + " + ") + (pitch == 1 ? "(" + c + ")" : "(" + c + ") * " + std::to_string(pitch));
    pitch *= g.shape[static_cast<std::size_t>(a)];
  }
  return idx.empty() ? "0" : idx;
}

std::string KernelPrinter::combineExpr(const Op& o, ElemType e, const std::string& a, const std::string& b) {
  switch (o.reduce) {
    case ReduceKind::Sum: return binaryExpr(BinOp::Add, e, a, b, true);
    case ReduceKind::Prod: return binaryExpr(BinOp::Mul, e, a, b, true);
    case ReduceKind::Max: return binaryExpr(BinOp::Max, e, a, b, true);
    case ReduceKind::Min: return binaryExpr(BinOp::Min, e, a, b, true);
    case ReduceKind::Custom: break;
    default: internalError(std::string("a scan with ") + name(o.reduce) + " in " + k_.name);
  }
  auto it = combines_.find(&o);
  if (it == combines_.end()) {
    // The user's combine function, once, as a lambda: its operands are the region's arguments.
    const Block& r = *o.regions[0];
    const std::string fn = names_.fresh(names_.of(o.result()) + "_combine");
    const std::string t = type(e);
    line("const auto " + fn + " = [](" + t + " " + names_.of(r.args[0]) + ", " + t + " " + names_.of(r.args[1]) + ") {");
    ++indent_;
    block(r);
    line("return " + scalar(yieldOf(r)->operands[0]) + ";");
    --indent_;
    line("};");
    it = combines_.emplace(&o, fn).first;
  }
  return it->second + "(" + a + ", " + b + ")";
}

void KernelPrinter::scan(const Op& o) {
  const Value* x = o.operands[0];
  const Value* r = o.result();
  const bool isScan = o.kind == OpKind::Scan;
  const int axis = o.axis;
  const Geo gx = geo(x);
  const Layout& l = *gx.l;
  const int p = gx.ax[static_cast<std::size_t>(axis)].parentDim;
  const ReduceGeom rg = reduceGeom(l, x->type.shape, axis);
  if ((rg.warps > 1) != (o.operands.size() == 2)) internalError("a scan across warps without its scratch buffer in " + k_.name);
  const ElemType e = x->type.elem;
  const std::string t = type(e);
  auto f = [&](const std::string& a, const std::string& b) { return combineExpr(o, e, a, b); };
  f("a", "b");  // a custom combine's lambda goes before the scan's own scope
  int rn = 1;
  for (int a = 0; a < x->type.rank(); ++a)
    if (a != axis) rn *= gx.ax[static_cast<std::size_t>(a)].regs;
  const int C = rg.chunks, S = rg.spt, RC = rn * C;
  const std::string rc = std::to_string(RC), cs = std::to_string(C), ss = std::to_string(S);
  // Register of row j (loop variable reg), run c, element k of the run.
  auto at = [&](const std::string& base, const std::string& c, const std::string& k) {
    const std::string d = c == "0" ? k : k == "0" ? c + " * " + ss : c + " * " + ss + " + " + k;
    return base + "[" + axisReg(gx, axis, "reg", d) + "]";
  };
  line("// " + std::string(isScan ? "scan" : "reduction in element order") + " (" + name(o.reduce) + ") along axis " +
       std::to_string(axis) + ": " + cs + " runs of " + ss + " per thread; in-thread, then lanes (shuffles)" +
       (rg.warps > 1 ? ", then warps (shared memory)" : ""));
  // The values being scanned: the result's registers for a scan, a copy for a reduction.
  const std::string n = isScan ? array(r, "scan") : names_.fresh(names_.of(r) + "_scan");
  if (!isScan) line(t + " " + n + "[" + std::to_string(gx.n) + "];");
  loop(gx.n, n + "[reg] = " + el(x, "reg") + ";");
  line("{");
  ++indent_;
  // 1. each run in the thread; its total
  line(t + " scan_tot[" + rc + "];");
  line("#pragma unroll");
  line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg)");
  line("  #pragma unroll");
  line("  for (int scan_chunk = 0; scan_chunk < " + cs + "; ++scan_chunk) {");
  if (S > 1) {
    line("    #pragma unroll");
    line("    for (int scan_k = 1; scan_k < " + ss + "; ++scan_k) " + at(n, "scan_chunk", "scan_k") + " = " +
         f(at(n, "scan_chunk", "(scan_k - 1)"), at(n, "scan_chunk", "scan_k")) + ";");
  }
  line("    scan_tot[reg * " + cs + " + scan_chunk] = " + at(n, "scan_chunk", std::to_string(S - 1)) + ";");
  line("  }");
  // 2. across the lanes along the axis: inclusive prefix of the run totals, then each lane's
  // exclusive one (lanes past the distinct elements hold copies: positions repeat)
  const bool lanes = rg.lanes > 1;
  if (lanes) {
    const int tpw = l.tpw[static_cast<std::size_t>(p)];
    line("const int scan_lane = " + bits(lane(), rg.laneStride, tpw, 32) + (tpw > rg.lanes ? " & " + std::to_string(rg.lanes - 1) : "") +
         ";  // position along the axis");
    for (int off = 1; off < rg.lanes; off *= 2) {
      line("#pragma unroll");
      line("for (int reg = 0; reg < " + rc + "; ++reg) {");
      line("  const " + t + " scan_val = " + shfl("__shfl_up_sync", e, t, "scan_tot[reg]", std::to_string(off * rg.laneStride)) + ";");
      line("  if (scan_lane >= " + std::to_string(off) + ") scan_tot[reg] = " + f("scan_val", "scan_tot[reg]") + ";");
      line("}");
    }
    if (isScan) {
      line(t + " scan_ex[" + rc + "];  // the earlier lanes' total (lanes after the first)");
      loop(RC, "scan_ex[reg] = " + shfl("__shfl_up_sync", e, t, "scan_tot[reg]", std::to_string(rg.laneStride)) + ";");
    }
  }
  // 3. across warps: each warp's last lane publishes its run totals; every thread takes the
  // earlier warps' and the whole run's
  line(t + " scan_total[" + rc + "];  // each run's total over the axis");
  const bool warps = rg.warps > 1;
  if (warps) {
    const int wpc = l.wpc[static_cast<std::size_t>(p)];
    const std::string wraw = bits(warp(), rg.warpStride, wpc, k_.numWarps);
    line("const int scan_warp = " + wraw + (wpc > rg.warps ? " & " + std::to_string(rg.warps - 1) : "") + ";");
    const std::int64_t rows = x->type.numel() / x->type.shape[static_cast<std::size_t>(axis)];
    const std::string slot = "(scan_warp * " + std::to_string(rows) + " + " + rowIndex(gx, axis, "reg") + ") * " + cs + " + scan_chunk";
    std::vector<std::string> writer;
    if (l.tpw[static_cast<std::size_t>(p)] > 1)  // the last distinct lane (copies beyond it stay quiet)
      writer.push_back(bits(lane(), rg.laneStride, l.tpw[static_cast<std::size_t>(p)], 32) + " == " + std::to_string(rg.lanes - 1));
    if (rg.warps < wpc) writer.push_back(wraw + " < " + std::to_string(rg.warps));
    const std::string others = owner(gx, p);
    if (!others.empty()) writer.push_back(others);
    std::string w;
    for (auto& c : writer) w += (w.empty() ? "" : " && ") + c;
    line(t + "* scan_buf = reinterpret_cast<" + t + "*>(" + buffer(o.operands[1]) + ");");
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg)");
    line("  #pragma unroll");
    line("  for (int scan_chunk = 0; scan_chunk < " + cs + "; ++scan_chunk)");
    line("    " + (w.empty() ? "" : "if (" + w + ") ") + "scan_buf[" + slot + "] = scan_tot[reg * " + cs + " + scan_chunk];");
    line(ctaSync_ + ";  // every warp's run totals are written");
    const std::string from = "scan_buf[(scan_w * " + std::to_string(rows) + " + " + rowIndex(gx, axis, "reg") + ") * " + cs + " + scan_chunk]";
    if (isScan) {
      line(t + " scan_wpre[" + rc + "];");
      line("bool scan_has_wpre[" + rc + "];");
    }
    line("#pragma unroll");
    line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg)");
    line("  #pragma unroll");
    line("  for (int scan_chunk = 0; scan_chunk < " + cs + "; ++scan_chunk) {");
    line("    const int scan_i = reg * " + cs + " + scan_chunk;");
    if (isScan) line("    scan_has_wpre[scan_i] = false;");
    line("    #pragma unroll");
    line("    for (int scan_w = 0; scan_w < " + std::to_string(rg.warps) + "; ++scan_w) {");
    line("      const " + t + " scan_val = " + from + ";");
    line("      scan_total[scan_i] = scan_w == 0 ? scan_val : " + f("scan_total[scan_i]", "scan_val") + ";");
    if (isScan) {
      line("      if (scan_w < scan_warp) {");
      line("        scan_wpre[scan_i] = scan_has_wpre[scan_i] ? " + f("scan_wpre[scan_i]", "scan_val") + " : scan_val;");
      line("        scan_has_wpre[scan_i] = true;");
      line("      }");
    }
    line("    }");
    line("  }");
  } else if (lanes) {  // the last lane along the axis holds the run's total
    loop(RC, "scan_total[reg] = " + shfl("__shfl_sync", e, t, "scan_tot[reg]", "lane + (" + std::to_string(rg.lanes - 1) +
                                                                                 " - scan_lane) * " + std::to_string(rg.laneStride)) + ";");
  } else {
    loop(RC, "scan_total[reg] = scan_tot[reg];");
  }
  // 4. the earlier runs, warps and lanes, in that order, then each element (a scan); or the
  // runs' totals in order (a reduction)
  line("#pragma unroll");
  line("for (int reg = 0; reg < " + std::to_string(rn) + "; ++reg) {");
  ++indent_;
  line(t + " scan_carry = scan_total[reg * " + cs + "];");
  if (isScan) {
    line("#pragma unroll");
    line("for (int scan_chunk = 0; scan_chunk < " + cs + "; ++scan_chunk) {");
    ++indent_;
    line("const int scan_i = reg * " + cs + " + scan_chunk;");
    line(t + " scan_pre = scan_carry;");
    line("bool scan_has = scan_chunk > 0;");
    if (warps)
      line("if (scan_has_wpre[scan_i]) { scan_pre = scan_has ? " + f("scan_pre", "scan_wpre[scan_i]") + " : scan_wpre[scan_i]; scan_has = true; }");
    if (lanes) line("if (scan_lane > 0) { scan_pre = scan_has ? " + f("scan_pre", "scan_ex[scan_i]") + " : scan_ex[scan_i]; scan_has = true; }");
    line("if (scan_has)");
    line("  #pragma unroll");
    line("  for (int scan_k = 0; scan_k < " + ss + "; ++scan_k) " + at(n, "scan_chunk", "scan_k") + " = " +
         f("scan_pre", at(n, "scan_chunk", "scan_k")) + ";");
    line("if (scan_chunk > 0) scan_carry = " + f("scan_carry", "scan_total[scan_i]") + ";");
    --indent_;
    line("}");
  } else {
    line("#pragma unroll");
    line("for (int scan_chunk = 1; scan_chunk < " + cs + "; ++scan_chunk) scan_carry = " +
         f("scan_carry", "scan_total[reg * " + cs + " + scan_chunk]") + ";");
    line(n + "[reg] = scan_carry;  // the row's result (rows first in " + n + ")");
  }
  --indent_;
  line("}");
  --indent_;
  line("}");
  if (isScan) return;
  // A reduction's result: row j's value, in the slice layout (rows in the same order).
  if (!r->type.isTile()) {
    line(constDecl(r->type.elem, names_.of(r)) + " = " + n + "[0];");
    return;
  }
  View w;
  w.base = n;
  w.strides = geo(r).rstride;
  views_[r->id] = w;
}

}  // namespace tilecc::codegen
