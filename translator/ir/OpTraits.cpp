#include "ir/OpTraits.h"

#include "ir/InternalError.h"

#include <algorithm>
#include <array>

namespace tilecc::ir {

namespace {

constexpr OpLevel B = OpLevel::Both, T = OpLevel::TileOnly, G = OpLevel::GpuOnly;
constexpr unsigned kNone = 0;

// One row per OpKind, in declaration order (checked below).
const std::array<OpTraits, kNumOpKinds> kTable = {{
    {"const", B, Family::Scalar, true, true, false, false, kAttrConst},
    {"program_id", B, Family::Scalar, true, true, false, false, kAttrAxis},
    {"num_programs", B, Family::Scalar, true, true, false, false, kAttrAxis | kAttrCount},
    {"arange", B, Family::Shape, true, true, false, false, kNone},
    {"splat", B, Family::Shape, true, true, false, false, kNone},
    {"broadcast", B, Family::Shape, true, true, false, false, kNone},
    {"expand_dims", B, Family::Shape, true, true, false, false, kAttrAxis},
    {"trans", B, Family::Shape, true, true, false, false, kNone},
    {"binary", B, Family::Elementwise, true, true, true, false, kAttrBinOp},
    {"unary", B, Family::Elementwise, true, true, true, false, kAttrUnOp},
    {"fma", B, Family::Elementwise, true, true, true, false, kNone},
    {"select", B, Family::Elementwise, true, true, true, false, kNone},
    {"convert", B, Family::Elementwise, true, true, true, false, kNone},
    {"addptr", B, Family::Elementwise, true, true, true, false, kNone},
    {"load", B, Family::Memory, false, true, false, false, kAttrAccess},
    {"store", B, Family::Memory, false, false, false, false, kAttrAccess},
    {"atomic_add", B, Family::Memory, false, false, false, false, kAttrAccess},
    {"reduce", B, Family::Reduce, true, true, false, false, kAttrReduce | kAttrAxis},
    {"barrier", B, Family::Control, false, false, false, false, kAttrSync | kAttrNote},
    {"for", B, Family::Control, false, false, false, false, kAttrCmp},
    {"if", B, Family::Control, false, false, false, false, kAttrNote},
    {"yield", B, Family::Control, false, false, false, true, kNone},
    {"return", B, Family::Control, false, false, false, true, kNone},
    {"hint", B, Family::Elementwise, true, true, true, false, kAttrHint},
    {"scan", B, Family::Reduce, true, true, false, false, kAttrReduce | kAttrAxis},
    {"assert", B, Family::Control, false, false, false, false, kAttrNote | kAttrCount},
    {"reshape", T, Family::TileOnly, true, true, false, false, kNone},
    {"dot", T, Family::TileOnly, true, true, false, false, kAttrTf32 | kAttrNote},
    {"convert_layout", T, Family::TileOnly, true, true, false, false, kNone},
    {"local_alloc", G, Family::Shared, false, true, false, false, kAttrOffset},
    {"shared_slot", G, Family::Shared, true, true, false, false, kAttrCount},
    {"shared_store", G, Family::Shared, false, false, false, false, kAttrTransposed | kAttrAccess},
    {"shared_load", G, Family::Shared, false, true, false, false, kAttrAccess},
    {"async_copy", G, Family::Async, false, false, false, false, kAttrTransposed | kAttrAccess},
    {"async_commit", G, Family::Async, false, false, false, false, kNone},
    {"async_wait", G, Family::Async, false, false, false, false, kAttrCount},
    {"mma", G, Family::Mma, false, false, false, false, kAttrInstr | kAttrTransposed | kAttrNote},
    {"proxy_fence", G, Family::Async, false, false, false, false, kNone},
    {"mbarrier_init", G, Family::Async, false, false, false, false, kAttrCount},
    {"mbarrier_expect_tx", G, Family::Async, false, false, false, false, kAttrCount},
    {"mbarrier_arrive", G, Family::Async, false, false, false, false, kNone},
    {"mbarrier_wait", G, Family::Async, false, false, false, false, kNone},
    {"tma_load", G, Family::Async, false, false, false, false, kAttrCount | kAttrAxis},
    {"tma_store", G, Family::Async, false, false, false, false, kAttrCount},
    {"tma_store_wait", G, Family::Async, false, false, false, false, kAttrCount},
    {"wgmma", G, Family::Hopper, false, false, false, false, kAttrInstr | kAttrTransposed},
    {"wgmma_wait", G, Family::Hopper, false, false, false, false, kAttrCount},
    {"warp_group", G, Family::Hopper, false, false, false, false, kAttrWarpGroup},
    {"setmaxnreg", G, Family::Hopper, false, false, false, false, kAttrRegs},
}};

static_assert(kTable.size() == kNumOpKinds);

}  // namespace

const OpTraits& traits(OpKind k) {
  const auto i = static_cast<std::size_t>(k);
  if (i >= kTable.size()) internalError("op kind out of range");
  return kTable[i];
}

bool opKindByName(const std::string& name, OpKind& out) {
  for (std::size_t i = 0; i < kTable.size(); ++i)
    if (name == kTable[i].name) {
      out = static_cast<OpKind>(i);
      return true;
    }
  return false;
}

const char* name(BinOp o) {
  static const char* n[] = {"add", "sub", "mul",   "div",   "rem",  "shl",      "shr", "and", "or",
                            "xor", "max", "min",   "pow",   "atan2", "hypot", "fmod", "copysign", "remainder", "ldexp", "eq", "ne",
                            "lt",  "le",  "gt",    "ge"};
  static_assert(std::size(n) == kNumBinOps, "a name per binary op");
  return n[static_cast<int>(o)];
}

const char* name(UnOp o) {
  static const char* n[] = {"neg",  "not", "bitnot", "abs",  "exp", "exp2",    "log",   "log2", "sqrt",  "rsqrt", "sin",
                            "cos",  "tan", "tanh",   "erf",  "sigmoid", "floor", "ceil", "trunc", "round", "round_tf32", "fast_exp", "fast_exp2",
                            "log10", "log1p", "expm1", "cbrt", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
                            "erfc", "tgamma", "lgamma", "rint"};
  static_assert(std::size(n) == kNumUnOps, "a name per unary op");
  return n[static_cast<int>(o)];
}

const char* name(ReduceKind r) {
  static const char* n[] = {"sum", "max", "min", "argmax", "argmin", "prod", "custom"};
  return n[static_cast<int>(r)];
}

const char* name(CmpPred c) {
  static const char* n[] = {"lt", "le", "gt", "ge", "ne"};
  return n[static_cast<int>(c)];
}

const char* name(HintKind h) {
  static const char* n[] = {"multiple_of", "max_contiguous", "layout"};
  return n[static_cast<int>(h)];
}

const char* name(Sync s) {
  static const char* n[] = {"cta", "warp", "named", "turn_wait", "turn_pass"};
  return n[static_cast<int>(s)];
}

const char* name(MmaInstr m) {
  static const char* n[] = {"f16", "bf16", "tf32", "s8", "fma"};
  return n[static_cast<int>(m)];
}

}  // namespace tilecc::ir
