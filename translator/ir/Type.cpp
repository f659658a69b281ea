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

std::string toString(const Type& t) {
  if (!t.isTile()) return toString(t.elem);
  std::string s = "tile<";
  for (int d : t.shape) s += std::to_string(d) + "x";
  return s + toString(t.elem) + ">";
}

}  // namespace tilecc::ir
