// Types of Tile IR values: scalars, tiles of a static shape, and their element types.
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

struct Type {
  ElemType elem;
  std::vector<int> shape;  // empty: a scalar

  static Type scalar(ElemType e) { return Type{e, {}}; }
  static Type tile(ElemType e, std::vector<int> s) { return Type{e, std::move(s)}; }
  bool operator==(const Type&) const = default;

  bool isTile() const { return !shape.empty(); }
  int rank() const { return static_cast<int>(shape.size()); }
  std::int64_t numel() const;
  Type withElem(ElemType e) const { return Type{e, shape}; }
  Type withShape(std::vector<int> s) const { return Type{elem, std::move(s)}; }
};

std::string toString(Scalar s);
std::string toString(ElemType e);
std::string toString(const Type& t);

}  // namespace tilecc::ir
