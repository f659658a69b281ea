#include "transform/TensorMaps.h"

#include "ir/GridExpr.h"

#include <algorithm>

namespace tilecc::ir {

Value* emitPoly(Builder& b, const Poly& p, const Value* trip, Value* tripValue) {
  return emitPoly(b, p, std::map<const Value*, Value*>{{trip, tripValue}});
}

Value* emitPoly(Builder& b, const Poly& p, const std::map<const Value*, Value*>& atoms) {
  const ElemType i32 = ElemType::of(Scalar::I32);
  Value* sum = nullptr;
  for (const auto& [m, c] : p.terms) {
    Value* term = nullptr;
    for (const Value* a : m) {
      auto it = atoms.find(a);
      Value* x = it != atoms.end() ? it->second : const_cast<Value*>(a);
      if (x->type.elem != i32) x = b.one(OpKind::Convert, {x}, Type::scalar(i32));
      term = term ? b.binary(BinOp::Mul, term, x, i32) : x;
    }
    if (!term) term = b.intConst(c, i32);
    else if (c != 1) term = b.binary(BinOp::Mul, term, b.intConst(c, i32), i32);
    sum = sum ? b.binary(BinOp::Add, sum, term, i32) : term;
  }
  return sum ? sum : b.intConst(0, i32);
}

namespace {

// A polynomial as an expression the launcher bounds over the grid (32-bit, as the device computes
// coordinates), or nothing where an atom is not computed from program ids, parameters and
// constants alone.
std::optional<GridExpr> gridExprOf(const Kernel& k, const Poly& p) {
  std::optional<GridExpr> sum;
  for (const auto& [monomial, coef] : p.terms) {
    GridExpr term;
    term.value = coef;
    for (const Value* atom : monomial) {
      auto a = gridExprOf(k, atom);
      if (!a) return std::nullopt;
      term = coef == 1 && term.kind == GridExpr::Kind::Const ? std::move(*a) : GridExpr::binary(GridExpr::Kind::Mul, std::move(term), std::move(*a));
    }
    sum = sum ? GridExpr::binary(GridExpr::Kind::Add, std::move(*sum), std::move(term)) : std::move(term);
  }
  return sum ? std::move(*sum) : GridExpr{};
}

}  // namespace

void checkStart(Kernel& k, Builder& b, const Poly& start, const Loc& loc, const std::string& verb, const Value* trip) {
  const std::string why = "a TMA box would start below its tensor: the pointers " + verb + " before it";
  if (auto e = gridExprOf(k, start)) {
    addGridCheck(k, std::move(*e), "the start of the TMA box at line " + std::to_string(loc.line), why, loc.line);
    return;
  }
  b.checkNonNegative(emitPoly(b, start, trip, b.intConst(0)), loc, why);
}

HostExpr hostExpr(const Kernel& k, const Poly& p) {
  HostExpr e;
  for (const auto& [m, c] : p.terms) {
    HostTerm t{c, {}};
    for (const Value* a : m) t.params.push_back(k.paramIndex(a));
    e.push_back(t);
  }
  return e;
}

namespace {

// The descriptor parameter (after the others) of `info`, copied one panel of the swizzle's width of
// `buffer` at a time; recorded in Kernel::tensorMaps.
Value* addDescriptor(Kernel& k, TensorMapInfo info, const Type& buffer, const std::string& name) {
  const int inner = buffer.smem.swizzle / buffer.elem.bytes();
  Value* d = k.newValue(Type::tensorDesc(buffer.elem, {buffer.shape[0], inner}));
  d->name = name;
  info.param = static_cast<int>(k.params.size());
  info.box.push_back(inner);
  info.swizzle = buffer.smem.swizzle;
  k.params.push_back(d);
  k.paramInfo.push_back(ParamInfo{d->name, 0, 0});
  k.tensorMaps.push_back(std::move(info));
  return d;
}

}  // namespace

Value* addTensorDescriptor(Kernel& k, const StructuredBox& box, const Type& buffer, const std::string& name) {
  TensorMapInfo info;
  info.baseParam = box.baseParam;
  for (const Poly& x : box.dims) info.dims.push_back(hostExpr(k, x));
  for (std::size_t a = 0; a + 1 < box.strides.size(); ++a) info.strides.push_back(hostExpr(k, box.strides[a]));
  info.box.assign(box.extents.begin(), box.extents.end() - 1);  // outer axes (1), rows; then one panel
  return addDescriptor(k, std::move(info), buffer, name);
}

int im2colShift(int rank) { return rank == 5 ? 16 : 64; }

Value* addIm2colDescriptor(Kernel& k, const Im2colBox& box, const Type& buffer, const std::string& name) {
  TensorMapInfo info;
  info.baseParam = box.baseParam;
  // Axes outermost first: images, the spatial axes, channels.
  info.dims.push_back(hostExpr(k, box.images));
  for (const Poly& e : box.extents) info.dims.push_back(hostExpr(k, e));
  info.dims.push_back(hostExpr(k, box.channels));
  Poly stride = box.pixelStride;
  std::vector<HostExpr> strides;
  for (std::size_t a = box.extents.size(); a-- > 0;) {
    strides.insert(strides.begin(), hostExpr(k, stride));
    stride = stride * box.extents[a];
  }
  strides.insert(strides.begin(), hostExpr(k, stride));
  info.strides = strides;
  info.box = {box.rows};  // pixels; then one panel of channels
  info.im2colShift = im2colShift(static_cast<int>(box.extents.size()) + 2);
  return addDescriptor(k, std::move(info), buffer, name);
}

}  // namespace tilecc::ir
