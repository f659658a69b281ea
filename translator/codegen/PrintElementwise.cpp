// Scalars, shapes and elementwise ops: register arrays filled by one unrolled loop each;
// broadcasts, expand_dims, trans and splats are views of their operand's registers.
#include "codegen/KernelPrinter.h"

#include "ir/IndexTiles.h"
#include "ir/InternalError.h"
#include "ir/OpTraits.h"

namespace tilecc::codegen {

namespace {

BinOp mirrored(BinOp op) {
  switch (op) {
    case BinOp::Lt: return BinOp::Gt;
    case BinOp::Le: return BinOp::Ge;
    case BinOp::Gt: return BinOp::Lt;
    case BinOp::Ge: return BinOp::Le;
    default: return op;  // == and !=
  }
}

}  // namespace

// The operand printed as the index of a comparison (indexCompare), or -1: ir/IndexTiles' choice,
// by the registers a thread holds along each axis of the result.
int KernelPrinter::indexSide(const Op& o) {
  if (o.kind != OpKind::Binary || !o.result() || !o.result()->type.isTile()) return -1;
  return indexCompareOperand(o, [&](int axis) { return geo(o.result()).ax[static_cast<std::size_t>(axis)].regs; });
}

// Whether some use of `v` (an arange, or a placing op of one) reads its registers: every use but
// the index side of a comparison printed by indexCompare.
bool KernelPrinter::indexRead(const Value* v) {
  const auto it = users_.find(v);
  if (it == users_.end()) return false;
  for (const Op* u : it->second) {
    const bool places = u->kind == OpKind::Broadcast || u->kind == OpKind::ExpandDims || u->kind == OpKind::Trans ||
                        u->kind == OpKind::Hint;
    if (places && u->result() && u->result()->type.isTile()) {
      if (indexRead(u->result())) return true;
      continue;
    }
    const int i = indexSide(*u);
    if (i < 0 || u->operands[static_cast<std::size_t>(1 - i)] == v) return true;
  }
  return false;
}

// `x cmp index` as `index_relative(x, thread's first index, n) cmp constant` per element: x is the
// same along the index's axis, so the first part is one value per row after unrolling, and no
// register holds each element's index (a causal mask's 32 column offsets a thread, which ptxas
// otherwise computes ahead and keeps live across the wgmma wait).
void KernelPrinter::indexCompare(const Op& o, int side) {
  const Value* r = o.result();
  const Value* idx = o.operands[static_cast<std::size_t>(side)];
  const Value* x = o.operands[static_cast<std::size_t>(1 - side)];
  const int a = indexAxis(idx);
  const BinOp cmp = side == 1 ? o.binop : mirrored(o.binop);
  const Geo g = geo(r);
  const std::string n = array(r);
  const std::string first = base(g, a);
  const std::string extent = std::to_string(r->type.shape[static_cast<std::size_t>(a)]);
  const std::string relative = "tilecc::index_relative(" + el(x, "reg") + ", " + first + ", " + extent + ")";
  loop(g.n, n + "[reg] = " + binaryExpr(cmp, ElemType::of(Scalar::I32), relative, coordOffset(g, a, "reg"), true) + ";");
}

// f32 → f16 / bf16 two elements at a time: one cvt.rn.f16x2.f32 (bf16x2) rounds both, each as
// alone. ptxas pairs single conversions itself only where nothing separates them; exp2f's
// predicated subnormal steps did, and each P element of attention then took an F2FP and a PRMT
// (SASS of the tutorial's D128 kernel: 160 F2FP + 128 PRMT against 96 + 32 paired).
void KernelPrinter::convertPairs(const Op& o) {
  const Value* r = o.result();
  const Value* x = o.operands[0];
  const std::string fn = r->type.elem.kind == Scalar::F16 ? "tilecc::cvt_f16x2(" : "tilecc::cvt_bf16x2(";
  const std::string n = array(r);
  line("#pragma unroll");
  line("for (int reg = 0; reg < " + std::to_string(geo(r).n) + "; reg += 2) " + fn + el(x, "reg") + ", " +
       el(x, "reg + 1") + ", " + n + "[reg], " + n + "[reg + 1]);");
}

void KernelPrinter::elementwise(const Op& o) {
  const Value* r = o.result();
  const bool tile = r && r->type.isTile();
  switch (o.kind) {
    case OpKind::Constant: return;  // printed where used
    case OpKind::ProgramId:
    case OpKind::NumPrograms: {
      static const char* axes[] = {"x", "y", "z"};
      // A persistent kernel's num_programs is the grid it was written for (a parameter).
      const char* grid = k_.persistent && o.count == 0 ? "tilecc_grid." : "gridDim.";
      line("const int " + names_.of(r) + " = " + (o.kind == OpKind::ProgramId ? "blockIdx." : grid) + axes[o.axis] + ";");
      return;
    }
    case OpKind::Splat: {
      View w;
      w.scalar = true;
      w.base = scalar(o.operands[0]);
      views_[r->id] = w;
      return;
    }
    case OpKind::Broadcast:
    case OpKind::ExpandDims:
    case OpKind::Trans: {
      const Value* x = o.operands[0];
      const View& src = view(x);
      View w = src;
      if (!src.scalar) {
        const Layout& rl = k_.layoutOf(r);
        const Layout& xl = k_.layoutOf(x);
        if (o.kind == OpKind::Broadcast) {
          if (!(rl == xl)) internalError("broadcast across layouts in " + k_.name);
          for (std::size_t a = 0; a < w.strides.size(); ++a)
            if (x->type.shape[a] == 1 && r->type.shape[a] != 1) w.strides[a] = 0;
        } else if (o.kind == OpKind::ExpandDims) {
          if (!(removeAxis(rl, o.axis) == xl)) internalError("expand_dims across layouts in " + k_.name);
          w.strides.insert(w.strides.begin() + o.axis, 0);
        } else {
          if (!(transposed(rl) == xl)) internalError("trans across layouts in " + k_.name);
          std::swap(w.strides[0], w.strides[1]);
        }
      }
      views_[r->id] = w;
      return;
    }
    case OpKind::Hint:
      if (tile) views_[r->id] = view(o.operands[0]);
      return;
    case OpKind::Arange: {
      const Geo g = geo(r);
      if (!indexRead(r)) {  // only compared as an index (indexCompare): no registers
        View w;
        w.base = "tilecc_unread_index";  // placing ops view it; a read would not compile
        w.strides = g.rstride;
        views_[r->id] = w;
        return;
      }
      const std::string n = array(r);
      loop(g.n, n + "[reg] = " + coord(g, 0, "reg") + ";");
      return;
    }
    case OpKind::Binary:
      if (const int side = indexSide(o); side >= 0) return indexCompare(o, side);
      break;
    default: break;
  }
  // binary, unary, fma, select, convert, addptr: one expression per element
  auto expr = [&](const std::string& i) {
    const ElemType e = o.operands[0]->type.elem;
    switch (o.kind) {
      case OpKind::Binary: return binaryExpr(o.binop, e, el(o.operands[0], i), el(o.operands[1], i), tile);
      case OpKind::Unary: return unaryExpr(o.unop, e, el(o.operands[0], i), tile);
      case OpKind::Fma:
        if (e.kind == Scalar::F32) return "fmaf(" + el(o.operands[0], i) + ", " + el(o.operands[1], i) + ", " + el(o.operands[2], i) + ")";
        if (isHalfLike(e))
          return fromF32(e, "fmaf(" + f32(e, el(o.operands[0], i)) + ", " + f32(e, el(o.operands[1], i)) + ", " +
                                f32(e, el(o.operands[2], i)) + ")");
        return binaryExpr(BinOp::Add, e, binaryExpr(BinOp::Mul, e, el(o.operands[0], i), el(o.operands[1], i), tile),
                          el(o.operands[2], i), tile);
      case OpKind::Select: return el(o.operands[0], i) + " ? " + el(o.operands[1], i) + " : " + el(o.operands[2], i);
      case OpKind::Convert: return convertExpr(e, r->type.elem, el(o.operands[0], i));
      case OpKind::AddPtr: return el(o.operands[0], i) + " + " + el(o.operands[1], i);
      default: internalError(std::string("no elementwise printing for ") + name(o.kind));
    }
  };
  if (!tile) {
    line(constDecl(r->type.elem, names_.of(r)) + " = " + expr("0") + ";");
    return;
  }
  const Geo g = geo(r);
  if (o.kind == OpKind::Convert && o.operands[0]->type.elem.kind == Scalar::F32 && isHalfLike(r->type.elem) &&
      g.n % 2 == 0)
    return convertPairs(o);
  const std::string n = array(r);
  loop(g.n, n + "[reg] = " + expr("reg") + ";");
}

}  // namespace tilecc::codegen
