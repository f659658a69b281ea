// Scalars, shapes and elementwise ops: register arrays filled by one unrolled loop each;
// broadcasts, expand_dims, trans and splats are views of their operand's registers.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

namespace tilecc::codegen {

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
      const std::string n = array(r);
      loop(g.n, n + "[reg] = " + coord(g, 0, "reg") + ";");
      return;
    }
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
  const std::string n = array(r);
  loop(g.n, n + "[reg] = " + expr("reg") + ";");
}

}  // namespace tilecc::codegen
