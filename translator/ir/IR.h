// Tile IR: typed SSA values, operations with attributes and nested regions (blocks).
// Plain structs; a Kernel owns all of its values and operations.
#pragma once

#include "ir/Type.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilecc::ir {

enum class OpKind : std::uint8_t {
  Constant,     // attr: i (integers, bool) or f (floats)
  ProgramId,    // attr i: axis
  NumPrograms,  // attr i: axis
  Arange,       // tile<N x i32>: 0..N-1
  Splat,        // scalar → tile
  Broadcast,    // tile with 1-extents → result shape
  ExpandDims,   // attr i: axis
  Reshape,
  Trans,        // rank 2
  Binary,       // attr sub: BinOp; operands of one type (shapes equal)
  Unary,        // attr sub: UnOp
  Fma,
  Select,       // (cond, a, b)
  Convert,      // element conversion with the language's rounding rules
  AddPtr,       // (pointers, integer offsets in elements)
  Load,         // (ptrs [, mask [, other]])
  Store,        // (ptrs, value [, mask])
  AtomicAdd,    // (ptrs, value [, mask]) → old values
  Reduce,       // attr sub: ReduceKind, i: axis
  Dot,          // (a, b, acc); attr i: 1 for tf32
  Barrier,
  For,          // (lower, upper, step, inits...) region 0: (iv, carried...) → results; attr sub: CmpPred
  If,           // (cond) regions: then, else → results
  Yield,        // terminator of For/If regions
  Return,       // leaves the kernel
  ConvertLayout,
  Hint,         // identity; sub 0: multiple_of(i), sub 1: max_contiguous(i) (seeds the axis analysis)
};

enum class BinOp : std::uint8_t { Add, Sub, Mul, Div, Rem, Shl, Shr, And, Or, Xor, Max, Min, Pow, Eq, Ne, Lt, Le, Gt, Ge };
enum class UnOp : std::uint8_t {
  Neg, Not, BitNot, Abs, Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Tan, Tanh, Erf, Sigmoid, Floor, Ceil, Trunc, Round
};
enum class ReduceKind : std::uint8_t { Sum, Max, Min, ArgMax, ArgMin };

const char* name(OpKind k);
const char* name(BinOp o);
const char* name(UnOp o);
const char* name(ReduceKind r);
inline bool isComparison(BinOp o) { return o >= BinOp::Eq; }

/// A source position for diagnostics and comments (file as given to tilecc).
struct Loc {
  std::string file;
  unsigned line = 0, col = 0;
};

struct Op;
struct Block;

struct Value {
  int id = 0;
  Type type;
  std::string name;        // from the source where there is one
  Op* def = nullptr;       // null for block arguments and kernel parameters
  Block* owner = nullptr;  // for block arguments
  int layout = -1;         // index into the kernel's layout table, once assigned
};

struct Block {
  std::vector<Value*> args;
  std::vector<std::unique_ptr<Op>> ops;
  Op* parent = nullptr;
};

struct Op {
  OpKind kind = OpKind::Constant;
  int sub = 0;  // BinOp / UnOp / ReduceKind / comparison of a For
  std::vector<Value*> operands;
  std::vector<Value*> results;
  std::int64_t i = 0;
  double f = 0;
  std::vector<std::unique_ptr<Block>> regions;
  Block* parent = nullptr;
  Loc loc;
  // Loads, stores and atomics of tiles: elements per access along axis `vecAxis` (set by the
  // axis analysis) and, when below 16 bytes, what limited it.
  int vec = 1;
  int vecAxis = -1;
  std::string vecNote;

  Value* result() const { return results.empty() ? nullptr : results[0]; }
  BinOp binop() const { return static_cast<BinOp>(sub); }
  UnOp unop() const { return static_cast<UnOp>(sub); }
  ReduceKind reduceKind() const { return static_cast<ReduceKind>(sub); }
};

/// Promises on a kernel parameter (0: none).
struct ParamInfo {
  std::string name;
  std::int64_t aligned = 0;
  std::int64_t multipleOf = 0;
};

struct Kernel {
  std::string name;        // C identifier of the generated kernel
  std::string sourceName;  // as written, e.g. softmax<float, 1024>
  Loc loc;
  int numWarps = 4;
  int numStages = 3;
  /// For a specialised variant: parameters assumed aligned / divisible (index → value);
  /// the launcher checks them before choosing this variant.
  std::vector<std::pair<int, std::int64_t>> assumed;
  std::vector<Value*> params;
  std::vector<ParamInfo> paramInfo;
  std::unique_ptr<Block> body = std::make_unique<Block>();
  std::vector<std::unique_ptr<Value>> values;

  Value* newValue(Type t, std::string name = {}) {
    auto v = std::make_unique<Value>();
    v->id = static_cast<int>(values.size());
    v->type = std::move(t);
    v->name = std::move(name);
    values.push_back(std::move(v));
    return values.back().get();
  }
};

/// Calls f(op) for every op in `b` and nested regions, in program order (pre-order).
template <class F>
void walk(Block& b, F&& f) {
  for (auto& op : b.ops) {
    f(*op);
    for (auto& r : op->regions) walk(*r, f);
  }
}

}  // namespace tilecc::ir
