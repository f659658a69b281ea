#include "ir/Type.h"

namespace tilecc::ir {

int ElemType::bytes() const {
  switch (kind) {
    case Scalar::Bool:
    case Scalar::I8:
    case Scalar::U8: return 1;
    case Scalar::F16:
    case Scalar::BF16: return 2;
    case Scalar::I32:
    case Scalar::U32:
    case Scalar::F32: return 4;
    case Scalar::I64:
    case Scalar::U64:
    case Scalar::Ptr: return 8;
  }
  return 0;
}

std::int64_t Type::numel() const {
  std::int64_t n = 1;
  for (int d : shape) n *= d;
  return n;
}

std::int64_t Type::rows() const {
  std::int64_t n = 1;
  for (std::size_t a = 0; a + 1 < shape.size(); ++a) n *= shape[a];
  return n;
}

std::int64_t Type::stageBytes() const { return rows() * smem.pitch; }

std::int64_t Type::sharedBytes() const {
  switch (kind) {
    case TypeKind::Shared: return stages * stageBytes();
    case TypeKind::MBarrier: return 8 * static_cast<std::int64_t>(stages);
    default: return 0;
  }
}

std::string toString(Scalar s) {
  switch (s) {
    case Scalar::Bool: return "i1";
    case Scalar::I8: return "i8";
    case Scalar::U8: return "u8";
    case Scalar::I32: return "i32";
    case Scalar::U32: return "u32";
    case Scalar::I64: return "i64";
    case Scalar::U64: return "u64";
    case Scalar::F16: return "f16";
    case Scalar::BF16: return "bf16";
    case Scalar::F32: return "f32";
    case Scalar::Ptr: return "ptr";
  }
  return "?";
}

std::string toString(ElemType e) {
  if (!e.isPtr()) return toString(e.kind);
  return std::string("ptr<") + (e.pointeeConst ? "const " : "") + toString(e.pointee) + ">";
}

namespace {

std::string shapeAndElem(const Type& t) {
  std::string s;
  for (int d : t.shape) s += std::to_string(d) + "x";
  return s + toString(t.elem);
}

}  // namespace

std::string toString(const Type& t) {
  switch (t.kind) {
    case TypeKind::Value: return t.isTile() ? "tile<" + shapeAndElem(t) + ">" : toString(t.elem);
    case TypeKind::Shared: {
      std::string s = "smem<" + shapeAndElem(t);
      if (t.stages != 1) s += ", stages=" + std::to_string(t.stages);
      s += ", pitch=" + std::to_string(t.smem.pitch);
      if (t.smem.swizzle) s += ", swizzle=" + std::to_string(t.smem.swizzle);
      return s + ">";
    }
    case TypeKind::MBarrier: return "mbarrier<" + std::to_string(t.stages) + ">";
    case TypeKind::TensorDesc: return "tdesc<" + shapeAndElem(t) + ">";
  }
  return "?";
}

std::int64_t sharedOffset(const SharedLayout& l, std::int64_t rows, std::int64_t row, std::int64_t byte) {
  if (!l.swizzle) return row * l.pitch + byte;
  const std::int64_t s = l.swizzle;
  const std::int64_t off = byte / s * rows * s + row * s + byte % s;
  return off ^ (((off >> 7) & (s / 16 - 1)) << 4);
}

}  // namespace tilecc::ir
