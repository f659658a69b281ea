// Types of Tile IR values. Both levels: scalars and tiles of a static shape. The GPU level
// adds shared-memory buffers (shape, element, stages, shared layout), arrays of mbarriers and
// tensor (TMA) descriptors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilecc::ir {

/// Element kinds. Ptr elements carry the kind they point to.
enum class Scalar : std::uint8_t { Bool, I8, U8, I32, U32, I64, U64, F16, BF16, F32, Ptr };

struct ElemType {
  Scalar kind = Scalar::I32;
  Scalar pointee = Scalar::Bool;  // only for Ptr
  bool pointeeConst = false;      // only for Ptr

  static ElemType of(Scalar s) { return ElemType{s, Scalar::Bool, false}; }
  static ElemType pointerTo(Scalar s, bool isConst) { return ElemType{Scalar::Ptr, s, isConst}; }
  bool operator==(const ElemType&) const = default;

  bool isPtr() const { return kind == Scalar::Ptr; }
  bool isBool() const { return kind == Scalar::Bool; }
  bool isFloat() const { return kind == Scalar::F16 || kind == Scalar::BF16 || kind == Scalar::F32; }
  bool isInt() const { return !isPtr() && !isBool() && !isFloat(); }
  bool isSigned() const { return kind == Scalar::I8 || kind == Scalar::I32 || kind == Scalar::I64; }
  /// Size in bytes of one element (pointers: 8).
  int bytes() const;
  ElemType pointeeType() const { return of(pointee); }
};

/// How a shared-memory buffer places its elements: rows (every axis but the last, flattened
/// row-major) of `pitch` bytes each; with `swizzle` (32, 64 or 128 bytes), the 16-byte chunks of
/// a row are XOR-permuted within each swizzle period, as wgmma descriptors and TMA expect.
struct SharedLayout {
  int pitch = 0;
  int swizzle = 0;
  bool operator==(const SharedLayout&) const = default;
};

/// Byte offset of byte `byte` of row `row` in a stage of `rows` rows. Swizzled buffers keep
/// their rows in panels of `swizzle` bytes (panel p of every row, then panel p + 1: the layout
/// wgmma's descriptors and TMA boxes describe), and XOR the 16-byte chunk index within each
/// 128-byte line with the line's index modulo swizzle/16 (PTX's Swizzle<log2(swizzle/16), 4, 3>).
std::int64_t sharedOffset(const SharedLayout& l, std::int64_t rows, std::int64_t row, std::int64_t byte);

enum class TypeKind : std::uint8_t { Value, Shared, MBarrier, TensorDesc };

struct Type {
  TypeKind kind = TypeKind::Value;
  ElemType elem;
  std::vector<int> shape;  // Value: empty for a scalar. Shared: one stage. TensorDesc: the box.
  int stages = 1;          // Shared: ring slots. MBarrier: barriers in the array.
  SharedLayout smem;       // Shared only

  static Type scalar(ElemType e) { return Type{TypeKind::Value, e, {}, 1, {}}; }
  static Type tile(ElemType e, std::vector<int> s) { return Type{TypeKind::Value, e, std::move(s), 1, {}}; }
  static Type shared(ElemType e, std::vector<int> s, int stages, SharedLayout l) {
    return Type{TypeKind::Shared, e, std::move(s), stages, l};
  }
  static Type mbarriers(int count) { return Type{TypeKind::MBarrier, ElemType::of(Scalar::U64), {}, count, {}}; }
  static Type tensorDesc(ElemType e, std::vector<int> box) { return Type{TypeKind::TensorDesc, e, std::move(box), 1, {}}; }
  bool operator==(const Type&) const = default;

  bool isValue() const { return kind == TypeKind::Value; }
  bool isTile() const { return kind == TypeKind::Value && !shape.empty(); }
  bool isScalar() const { return kind == TypeKind::Value && shape.empty(); }
  bool isShared() const { return kind == TypeKind::Shared; }
  int rank() const { return static_cast<int>(shape.size()); }
  std::int64_t numel() const;
  Type withElem(ElemType e) const { return Type{kind, e, shape, stages, smem}; }
  Type withShape(std::vector<int> s) const { return Type{kind, elem, std::move(s), stages, smem}; }

  /// Shared buffers: rows of one stage (all axes but the last), bytes of one stage, of all.
  std::int64_t rows() const;
  std::int64_t stageBytes() const;
  /// Bytes of shared memory a value of this type occupies (buffers and mbarriers).
  std::int64_t sharedBytes() const;
};

std::string toString(Scalar s);
std::string toString(ElemType e);
std::string toString(const Type& t);

}  // namespace tilecc::ir
