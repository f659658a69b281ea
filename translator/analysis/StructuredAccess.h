// Structured accesses: a pointer tile that is base + Σ_a (start_a + i_a)·stride_a over its tile
// indices i_a, with a mask that keeps exactly a box 0 <= start_a + i_a < dim_a, is one TMA box
// of a tensor (base, dims, strides). Starts, strides and bounds are polynomials over scalar
// values (parameters, program ids, a loop's trip index), so the analysis sees what users write:
// block pointers, `a + col(rm) * lda + row(rk)`, pointers advanced by a step each iteration,
// masks such as `row(rk) < K - k`. A row index `(s + arange) % M` (Triton's tutorial GEMM) is
// a box too where the rows past M are never observed: every value computed from them reaches
// memory only through stores whose mask drops those rows.
#pragma once

#include "ir/IR.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace tilecc::ir {

/// A polynomial with integer coefficients over scalar values ("atoms"), compared exactly.
struct Poly {
  struct IdLess {
    bool operator()(const std::vector<const Value*>& a, const std::vector<const Value*>& b) const;
  };
  std::map<std::vector<const Value*>, std::int64_t, IdLess> terms;  // monomial (atoms by id) → coefficient

  static Poly constant(std::int64_t c);
  static Poly atom(const Value* v);
  Poly operator+(const Poly& o) const;
  Poly operator-(const Poly& o) const;
  Poly operator*(const Poly& o) const;
  bool operator==(const Poly& o) const { return terms == o.terms; }
  bool isZero() const { return terms.empty(); }
  std::optional<std::int64_t> constantValue() const;
};

/// The size given to an axis the mask does not bound: coordinates stay below it, so the box
/// reads what the pointers read.
inline constexpr std::int64_t kUnboundedDim = (std::int64_t{1} << 31) - 1;

/// A tensor seen through a box: element (c_0, ..., c_r−1) at base + Σ c_a·stride_a, valid for
/// 0 <= c_a < dim_a; the tile's element i is c_a = start_a + i_a. Outer axes (box extent 1)
/// first, then the tile's axes in order (the last one contiguous: stride 1).
struct StructuredBox {
  int baseParam = -1;         // the pointer parameter the tensor starts at
  std::vector<Poly> starts;   // per axis: device values (program ids, the trip index `trip`, ...)
  std::vector<Poly> dims;     // per axis: parameters and constants only
  std::vector<Poly> strides;  // per axis, in elements: parameters and constants only (last: 1)
  /// Elements of the box per axis: the tile's shape, after one-element outer axes (a batch or
  /// head offset `program_id(1) * stride_head` is a third axis of the tensor).
  std::vector<int> extents;
  /// Starts (at the first iteration; later ones only grow) that are >= 0 in every program the
  /// grid launches but not provably so: checked once per program before the loop.
  std::vector<Poly> checks;
  /// Starts that depend on scalars computed in the loop (a filter tap `kb / blocks`) and are not
  /// provably >= 0: checked at each copy.
  std::vector<Poly> iterChecks;
  /// A stride parameter the box needs to be 1 (the contiguous axis), or -1: the variant must
  /// assume it (the launcher checks it before choosing the variant).
  int unitParam = -1;
};

/// The box a pipelined load of loop `loop` reads at the iteration with trip index `trip` (an
/// atom standing for (iv − lower) / step), when its pointers and mask are structured and its
/// masked-off elements are zero. Atoms of the starts are `trip` or values defined before the loop.
/// For a store after the loop (`load` may be a store): the box it writes, its values outside the
/// loop being atoms; rows taken modulo a bound are never a box there (the store writes them).
/// `transposed`: a rank-2 tile that lies transposed in shared memory (an operand whose unit
/// stride runs along the tile's axis 0: `w + col(k) + row(n) * K` as a [K][N] tile): the box in
/// the buffer's order ([N][K]), its last axis the tile's axis 0.
std::optional<StructuredBox> structuredBox(const Kernel& k, const Op& loop, const Op& load, const Value* trip,
                                           bool transposed = false);

/// Whether a polynomial's atoms are all parameters (computable by the launcher).
bool onlyParams(const Poly& p);

/// p / d where d is one monomial that divides every term of p exactly (else nothing).
std::optional<Poly> exactQuotient(const Poly& p, const Poly& d);

}  // namespace tilecc::ir
