// Tile IR: typed SSA values, operations with named attributes and nested regions (blocks).
// One data structure, two levels: the Tile level (what the frontend produces: tiles, loads,
// dot, reductions, loops) and the GPU level (shared-memory buffers, async copies, mma,
// barriers, ...), produced from it by the passes in transform/. OpTraits.h says which op
// belongs to which level and which attributes it uses. A Kernel owns its values and ops.
#pragma once

#include "ir/Layout.h"
#include "ir/Type.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilecc::ir {

enum class OpKind : std::uint8_t {
  // ---- both levels ----
  Constant,     // intValue (integers, bool) or floatValue (floats)
  ProgramId,    // axis
  NumPrograms,  // axis; count 1: the programs launched (a persistent kernel's own grid)
  Arange,       // tile<N x i32>: 0..N-1
  Splat,        // scalar → tile
  Broadcast,    // tile with 1-extents → result shape
  ExpandDims,   // axis
  Trans,        // rank 2
  Binary,       // binop; operands of one type (shapes equal)
  Unary,        // unop
  Fma,
  Select,       // (cond, a, b)
  Convert,      // element conversion with the language's rounding rules
  AddPtr,       // (pointers, integer offsets in elements)
  Load,         // (ptrs [, mask [, other]]); access
  Store,        // (ptrs, value [, mask]); access
  AtomicAdd,    // (ptrs, value [, mask]) → old values; access. At the GPU level a scalar
                // atomic's result holds only in thread 0 (it is shared through memory).
  Reduce,       // reduce, axis; (x) at the Tile level, (x [, scratch]) at the GPU level. With
                // reduce = custom (and for scans), region 0 is the combine: (a, b) → yield c
  Barrier,      // sync: a CTA barrier (also the user's barrier()), a warp barrier, or named
  For,          // (lower, upper, step, inits...) cmp; region: (iv, carried...) → results
  If,           // (cond) regions: then, else → results
  Yield,        // terminator of For/If regions
  Return,       // leaves the kernel
  Hint,         // identity; hint, hintValue (seeds the axis analysis)
  Scan,         // reduce (the combine), axis: inclusive scan along the axis; (x [, scratch])
  Assert,       // (scalar bool) note: the source's assert(); stops the kernel when false. count 1:
                // a translator's check, kept under NDEBUG
  // ---- Tile level only (lowered by makeSharedExplicit) ----
  Reshape,
  Dot,          // (a, b, acc); tf32
  ConvertLayout,
  // ---- GPU level ----
  LocalAlloc,     // → a shared buffer or an mbarrier array; offset (bytes, once allocated)
  SharedSlot,     // (ring, index) → one stage of the ring, as a one-stage buffer
  SharedStore,    // (tile or scalar, buffer); transposed: a rank-2 tile stored as [cols][rows]
  SharedLoad,     // (buffer) → tile or scalar (an unpadded buffer may be read in another shape)
  AsyncCopy,      // (ptrs, buffer, mask, pred): cp.async global → shared; access; transposed: a rank-2 tile into [cols][rows]
  AsyncCommit,    // closes this thread's group of async copies
  AsyncWait,      // (buffers written by the copies...) count: groups that may stay pending
  Mma,            // (a buffer, b buffer, acc) → acc; instr; transposed: b holds [N][K]; transposed_a: a holds [K][M]
  ProxyFence,     // fence.proxy.async: ordinary shared stores become visible to TMA/wgmma
  MBarrierInit,   // (mbarriers) count: arrivals expected per phase (each barrier of the array)
  MBarrierExpectTx,  // (mbarriers, index) count: bytes the phase's transactions bring
  MBarrierArrive,    // (mbarriers, index): one arrival per warp (its first lane)
  MBarrierWait,      // (mbarriers, index, phase parity)
  TmaLoad,        // (desc, buffer, mbarriers, index, coords..., offsets...): one thread copies a
                  // box; count: the 128-byte panel of the swizzled buffer it fills; axis: the
                  // im2col offsets at the end (one per spatial axis; 0: a tiled box)
  TmaStore,       // (desc, buffer, coords...): one thread stores a box from shared memory; count:
                  // the 128-byte panel of the swizzled buffer it reads (coordinates as tma_load's)
  TmaStoreWait,   // count: bulk store groups that may stay pending (reads of shared memory)
  Wgmma,          // (a: buffer or tile, b buffer, acc) → acc; instr; transposed: b holds [N][K]; transposed_a: a holds [K][M]
  WgmmaWait,      // (accs...) → accs; count: wgmma groups that may stay in flight
  WarpGroup,      // region 0 run by warps [firstWarp, firstWarp + numWarps), region 1 (if any) by
                  // all other warps; a CTA barrier inside a region synchronises its warps alone
  SetMaxNReg,     // regs, increase: register reallocation of the executing warp group
};
inline constexpr int kNumOpKinds = static_cast<int>(OpKind::SetMaxNReg) + 1;

/// Atan2 .. Ldexp: <cmath>'s float functions of two operands (scalars from the frontend);
/// Ldexp's exponent is an integer carried as a float (exact below 2^24; beyond ±300 every
/// exponent gives the same result).
enum class BinOp : std::uint8_t {
  Add, Sub, Mul, Div, Rem, Shl, Shr, And, Or, Xor, Max, Min, Pow, Atan2, Hypot, Fmod, Copysign, Remainder, Ldexp,
  Eq, Ne, Lt, Le, Gt, Ge
};
enum class UnOp : std::uint8_t {
  Neg, Not, BitNot, Abs, Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Tan, Tanh, Erf, Sigmoid, Floor, Ceil, Trunc, Round,
  RoundTf32,  // float → TF32 as the tensor cores round it (nearest, ties away), as a float
  FastExp,    // fast_exp, fast_exp2: the hardware's approximation (2 ulp), results below
  FastExp2,   // FLT_MIN flushed to zero
  // <cmath>'s other float functions of one operand (scalars from the frontend); rint rounds to
  // nearest even
  Log10, Log1p, Expm1, Cbrt, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Erfc, Tgamma, Lgamma, Rint
};
inline constexpr int kNumBinOps = static_cast<int>(BinOp::Ge) + 1;
inline constexpr int kNumUnOps = static_cast<int>(UnOp::Rint) + 1;
enum class ReduceKind : std::uint8_t { Sum, Max, Min, ArgMax, ArgMin, Prod, Custom };
/// Comparison of a for loop's induction variable with its bound.
enum class CmpPred : std::uint8_t { Lt, Le, Gt, Ge, Ne };
/// multiple_of, max_contiguous: facts for the axis analysis; layout: the user's with_layout<M>
/// (the result is pinned to layout `intValue` of the kernel's table until assign-layouts).
enum class HintKind : std::uint8_t { MultipleOf, MaxContiguous, Layout };
/// Barriers: all threads (of the CTA, or of the warp-group region the op is in), one warp, a
/// named barrier (id, threads), or the turns consumer warp groups take (takeTurns): TurnWait is
/// `bar.sync id + g` in warp group g, TurnPass `bar.arrive id + (g + 1) % count`.
enum class Sync : std::uint8_t { Cta, Warp, Named, TurnWait, TurnPass };
/// The tensor-core (or CUDA-core) instruction of an Mma / Wgmma op.
enum class MmaInstr : std::uint8_t { F16, BF16, TF32, S8, FmaIEEE };

const char* name(BinOp o);
const char* name(UnOp o);
const char* name(ReduceKind r);
const char* name(CmpPred c);
const char* name(HintKind h);
const char* name(Sync s);
const char* name(MmaInstr m);
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
  /// From the source where there is one (a variable); else empty and `hint` names the
  /// statement it came from (the variable it flows into), for stable generated names.
  std::string name;
  std::string hint;
  Op* def = nullptr;       // null for block arguments and kernel parameters
  Block* owner = nullptr;  // for block arguments
  int layout = -1;         // index into Kernel::layouts, once assigned (tiles only)
};

struct Block {
  std::vector<Value*> args;
  std::vector<std::unique_ptr<Op>> ops;
  Op* parent = nullptr;
};

/// How a tile load, store, atomic or async copy moves its elements: `vec` consecutive
/// elements per access along tile axis `axis`, and every fact that kept it below 16 bytes.
struct Access {
  int vec = 1;
  int axis = -1;
  std::vector<std::string> limits;
  bool operator==(const Access&) const = default;
};

/// The elements per access a thread issues for `a` where it holds runs of `spt` consecutive
/// elements along the access's axis: the proven width capped by the largest power of two
/// dividing spt (an aligned part of a proven run is as good), and 1 for elements over 8 bytes.
/// The printer issues it; the driver checks launch assumptions against it.
int issuedVec(const Access& a, int spt, int elemBytes);

struct Op {
  OpKind kind = OpKind::Constant;
  std::vector<Value*> operands;
  std::vector<Value*> results;
  std::vector<std::unique_ptr<Block>> regions;
  Block* parent = nullptr;
  Loc loc;

  // ---- attributes: named fields; OpTraits::attrs says which ones an op kind uses ----
  int axis = 0;                        // program_id, num_programs, expand_dims, reduce
  BinOp binop = BinOp::Add;            // binary
  UnOp unop = UnOp::Neg;               // unary
  ReduceKind reduce = ReduceKind::Sum;
  CmpPred cmp = CmpPred::Lt;           // for
  HintKind hint = HintKind::MultipleOf;
  std::int64_t intValue = 0;           // const (integers, bool); hint value
  double floatValue = 0;               // const (floats): compared by bit pattern, never by value
  bool tf32 = false;                   // dot
  Access access;                       // load, store, atomic_add, async_copy
  int offset = -1;                     // local_alloc: byte offset in shared memory (-1: not yet)
  bool transposed = false;             // shared_store, mma, wgmma
  bool transposedA = false;            // mma, wgmma: a holds [K][M] (A given M-contiguous)
  int count = 0;                       // async_wait, wgmma_wait, tma_store_wait: pending groups;
                                       // mbarrier_init: arrivals; mbarrier_expect_tx: bytes;
                                       // tma_load: panel; assert: 1 for the translator's own;
                                       // shared_slot: a pipeline's slot role (SlotRole)
  Sync sync = Sync::Cta;               // barrier
  int barrierId = 0, barrierThreads = 0;  // barrier with Sync::Named or a turn (count: warp groups)
  MmaInstr instr = MmaInstr::F16;      // mma, wgmma
  int firstWarp = 0, numWarps = 0;     // warp_group
  int regs = 0;                        // setmaxnreg
  bool increase = false;               // setmaxnreg
  std::string note;                    // barrier: why a pass put it there (printed as a comment);
                                       // dot, mma: why it is not wgmma on sm_90a (the report)

  Value* result() const { return results.empty() ? nullptr : results[0]; }
};

/// What a pipelined loop's slot view is (shared_slot's count): within one iteration the slot
/// the copies fill (`Ahead`, iterations ahead) is never the slot the body reads (`Current`).
enum SlotRole : int { kSlotPlain = 0, kSlotAhead = 1, kSlotCurrent = 2 };

/// Promises on a kernel parameter (0: none).
struct ParamInfo {
  std::string name;
  std::int64_t aligned = 0;
  std::int64_t multipleOf = 0;
};

enum class Level : std::uint8_t { Tile, Gpu };

/// A sum of products of integer parameters (indices into Kernel::params) with coefficients: a
/// value the launcher computes before the launch.
struct HostTerm {
  std::int64_t coef = 1;
  std::vector<int> params;
  bool operator==(const HostTerm&) const = default;
};
using HostExpr = std::vector<HostTerm>;

/// A TMA descriptor of a GPU-level variant, a parameter (TensorDesc) after the user's: the
/// launcher encodes it (cuTensorMapEncodeTiled) from the arguments, and launches another variant
/// where that fails (alignment, strides). Axes in tile order, the last contiguous.
struct TensorMapInfo {
  int param = -1;               // its index in Kernel::params
  int baseParam = -1;           // the pointer parameter the tensor starts at
  std::vector<HostExpr> dims;   // elements per axis
  std::vector<HostExpr> strides;  // elements between neighbours along each axis but the last
  std::vector<int> box;         // elements per axis of one copy; im2col: {pixels, channels}
  int swizzle = 128;            // bytes (0: none)
  /// im2col mode (analysis/Im2colAccess.h; cuTensorMapEncodeIm2col) where > 0: the axes are
  /// (images, spatial axes, channels), each spatial window's corners moved by −im2colShift (the
  /// copies' offsets are the taps' shifts plus im2colShift, never negative).
  int im2colShift = 0;
};

/// An assumption "this integer parameter equals 1" (a unit stride: `x + i * stride` is then
/// contiguous), in Kernel::assumed and ParamFacts, where divisors are always positive.
inline constexpr std::int64_t kEqualsOne = -1;
/// An assumption "this integer parameter is >= 0" (an offset in a dividend of / or %: its runs
/// then hold), in Kernel::assumed beside the parameter's other facts; in ParamFacts at the key
/// nonNegativeKey(index). The launcher checks it as it checks the others.
inline constexpr std::int64_t kNonNegative = -2;
inline constexpr int nonNegativeKey(int index) { return -1 - index; }

/// An integer expression the launcher evaluates: constants, integer parameters (indices into
/// Kernel::params), + − × / %, cdiv, min, max (a family's grid); for a check over the grid also
/// program ids and grid sizes (value: the axis), shifts, &, negation, the widening to 64 bits
/// and aranges (value: the extent; a tile's elements bounded together).
struct GridExpr {
  enum class Kind : std::uint8_t { Const, Param, Add, Sub, Mul, Div, Rem, Cdiv, Min, Max, ProgramId, NumPrograms, Shl, Shr, And, Neg, I64, Arange };
  Kind kind = Kind::Const;
  std::int64_t value = 0;  // Const; the axis of ProgramId, NumPrograms; Arange's extent
  int param = -1;          // Param
  std::vector<GridExpr> args;
  bool operator==(const GridExpr&) const = default;
  static GridExpr binary(Kind k, GridExpr a, GridExpr b) {
    GridExpr e;
    e.kind = k;
    e.args = {std::move(a), std::move(b)};
    return e;
  }
};

/// A fact a specialised variant assumes in every program: `expr >= 0` (every element of it) for
/// each program id the grid launches. The launcher bounds `expr` over the grid (interval arithmetic, the program
/// ids from 0 to the grid's size − 1, the arguments as given) and launches another variant
/// where the bound does not prove it: never a trap in a valid program.
struct GridCheck {
  GridExpr expr;
  std::string what;  // what is assumed, for comments and the report (`pid_m >= 0`)
  std::string why;   // which decision needs it
  unsigned line = 0;
  bool operator==(const GridCheck&) const = default;
};

/// An instantiation that belongs to a kernel family (options tune, tune_key, grid): the
/// instantiations of one template that differ only in the `tune` template parameters share
/// one launcher, which computes the grid and picks the configuration by shape and device.
struct TuneInfo {
  std::string family;          // C identifier: the template's name and the other template arguments
  std::string familySource;    // matmul<half, BM, BN, ...> (comments)
  std::string config;          // the configuration as the tuning table spells it: BM=128,BN=64
  std::vector<int> key;        // indices into Kernel::params of the shape key
  std::vector<GridExpr> grid;  // x [, y [, z]]
};

struct Kernel {
  std::string name;        // C identifier of the generated kernel
  std::string sourceName;  // as written, e.g. softmax<float, 1024>
  Loc loc;
  int numWarps = 4;
  int numStages = 3;
  /// The num_stages the source asked for where shared memory held fewer (the variant's header
  /// and report say so); 0 otherwise.
  int stagesAsked = 0;
  /// Stores staged through shared memory for their access width (assign-layouts), and whether
  /// the variant may stage them (the driver rebuilds it without where staging would cost a
  /// pipeline stage).
  bool stagedStores = false;
  bool stageStores = true;
  /// The warp_specialize option: -1 when the translator decides, else 0 or 1.
  int warpSpecialize = -1;
  /// The min_programs_per_sm option (0: unset): the second argument of __launch_bounds__, which
  /// caps the registers per thread so that this many programs fit on an SM.
  int minPrograms = 0;
  /// Warps launched beyond numWarps (warp specialisation's producer warp group): they run
  /// region 1 of the top-level warp_group; layouts span the numWarps warps alone.
  int producerWarps = 0;
  /// Family membership (the tune options), if any.
  std::optional<TuneInfo> tune;
  /// Why warpSpecialize left the kernel as it is (for the warning when the user asked).
  std::string notSpecialized;
  /// Why overlapDots left a loop of two dots as it is (for the report), if it tried.
  std::string notOverlapped;
  /// In a TMA build, why a loop's rings are not TMA (pipeline-loops); in an sm_90a aligned
  /// variant whose TMA twin copied nothing by TMA, why there is no such twin (the driver), for
  /// the report; empty where there is nothing to say.
  std::string noTma;
  /// A persistent grid (persistentGrid): program_id and num_programs of the kernel's own ops
  /// refer to the grid it was written for, a parameter after the others; num_programs with
  /// count 1 and the pass's program_id are the launched ones.
  bool persistent = false;
  Level level = Level::Tile;
  /// The target this variant is compiled for (set by the driver for the GPU level).
  std::string target;
  /// For a specialised variant: parameters assumed aligned / divisible (index → value), or
  /// equal to 1 (value kEqualsOne); the launcher checks them before choosing this variant.
  std::vector<std::pair<int, std::int64_t>> assumed;
  /// A variant the launcher picks by checking what it assumes (`assumed`, `gridChecks`), with
  /// another variant for the arguments and grids that fail the checks.
  bool specialised = false;
  /// For a specialised variant: facts of every program the launcher checks over the grid.
  std::vector<GridCheck> gridChecks;
  std::vector<Value*> params;
  std::vector<ParamInfo> paramInfo;
  /// GPU level: the TMA descriptors among the parameters (after the user's own).
  std::vector<TensorMapInfo> tensorMaps;
  /// The index of `v` among the parameters, or -1.
  int paramIndex(const Value* v) const {
    const auto it = std::find(params.begin(), params.end(), v);
    return it == params.end() ? -1 : static_cast<int>(it - params.begin());
  }
  /// Parameters the user wrote (the launcher's); the rest are descriptors.
  int userParams() const { return static_cast<int>(params.size() - tensorMaps.size()); }
  std::vector<Layout> layouts;  // Value::layout indexes this table
  int sharedBytes = 0;          // after allocateShared: bytes of shared memory per program
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
  const Layout& layoutOf(const Value* v) const { return layouts.at(static_cast<std::size_t>(v->layout)); }
  /// The index of `l` in the layout table, added if missing.
  int internLayout(const Layout& l);
};

/// Calls f(op) for every op in `b` and nested regions, in program order (pre-order).
template <class F>
void walk(Block& b, F&& f) {
  for (auto& op : b.ops) {
    f(*op);
    for (auto& r : op->regions) walk(*r, f);
  }
}
template <class F>
void walk(const Block& b, F&& f) {
  for (const auto& op : b.ops) {
    f(static_cast<const Op&>(*op));
    for (const auto& r : op->regions) walk(static_cast<const Block&>(*r), f);
  }
}

/// Whether block b is `outer` or nested inside it.
bool within(const Block* b, const Block& outer);

/// The terminator of a region if it is a yield, else null.
Op* yieldOf(const Block& b);

/// The step a loop adds to its carried value `arg` each iteration — the body yields
/// `addptr arg, step` or `arg + step` (either side) for it — else null. Whether the step
/// changes between iterations is the caller's question.
const Value* carriedStep(const Block& body, const Value* arg);

/// Index of a loop's carried block argument `arg` among its carried values (the loop's operand
/// index + 3, its result index).
std::size_t carriedIndex(const Op& loop, const Value* arg);

/// Adds to `loop` (with a yield) a carried value with initial value `init`, named `name`, which
/// the body passes on unchanged until the caller rewrites its yield operand; returns the body's
/// block argument (the loop's new result is the last).
Value* addCarried(Kernel& k, Op& loop, Value* init, const std::string& name);

/// A zero constant (integer 0 or +0.0, by bit pattern), possibly splat, broadcast or converted.
bool isZeroConstant(const Value* v);

/// The scalar that tile `v` is a splat of, or null.
Value* splatScalar(const Value* v);

/// The scalar constant op that `v` is, through splats, expand_dims, broadcasts, reshapes and
/// transposes (a tile of one value); null otherwise.
const Op* scalarConstant(const Value* v);

/// What a temporary computes, as a short name part (`mul`, `load`, `cvt`, ...).
std::string computes(const Value* v);

/// The buffer a shared-memory value refers to: the value itself, or the ring a slot views.
const Value* sharedRoot(const Value* buf);

/// Every op using each value, in program order.
std::map<const Value*, std::vector<Op*>> collectUsers(Block& b);

/// Replaces every use of `from` by `to` in `b` (and nested regions).
void replaceAllUses(Block& b, const Value* from, Value* to);

/// Removes `op` from its block (it must be unused).
void erase(Op& op);

/// Moves `op` out of its block to just before `anchor` (in the same or an enclosing block).
void moveBefore(Op& op, Op& anchor);

/// Whether `op` lies in the body of a `for`, directly or in a region nested there.
bool insideLoop(const Op& op);

}  // namespace tilecc::ir
