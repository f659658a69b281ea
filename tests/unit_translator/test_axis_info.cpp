// The axis analysis, one case per transfer rule: IR built by hand, facts checked.
#include <doctest/doctest.h>

#include "analysis/AxisInfo.h"
#include "ir/Builder.h"
#include "ir/GridExpr.h"
#include "transform/Passes.h"

#include <set>

using namespace tilecc::ir;

namespace {

const ElemType i32 = ElemType::of(Scalar::I32);
const ElemType i1 = ElemType::of(Scalar::Bool);
const ElemType f32p = ElemType::pointerTo(Scalar::F32, true);

struct Fixture {
  Kernel k;
  Builder b{k, k.body.get(), {}};
  Value* param(Type t, std::int64_t aligned = 0, std::int64_t multipleOf = 0) {
    Value* v = k.newValue(std::move(t), "p" + std::to_string(k.params.size()));
    k.params.push_back(v);
    k.paramInfo.push_back({v->name, aligned, multipleOf});
    return v;
  }
  Value* arange(int n) { return b.one(OpKind::Arange, {}, Type::tile(i32, {n})); }
  Value* splat(Value* s, std::vector<int> shape) { return b.one(OpKind::Splat, {s}, Type::tile(s->type.elem, std::move(shape))); }
  Value* bin(BinOp op, Value* a, Value* c, ElemType e) { return b.binary(op, a, c, e); }
  AxisInfo info(const Value* v, const ParamFacts& f = {}) { return analyzeAxes(k, f).at(v); }
};

}  // namespace

TEST_CASE("constants: divisibility is the largest power of two dividing the value") {
  Fixture f;
  Value* c = f.b.intConst(48);
  Value* z = f.b.intConst(0);
  CHECK(f.info(c).divisibility[0] == 16);
  CHECK(f.info(z).divisibility[0] == kMaxDivisibility);
}

TEST_CASE("arange: contiguous over its length, runs start at 0") {
  Fixture f;
  Value* a = f.arange(128);
  auto i = f.info(a);
  CHECK(i.contiguity[0] == 128);
  CHECK(i.divisibility[0] == kMaxDivisibility);
  CHECK(i.constancy[0] == 1);
}

TEST_CASE("parameters: promises, specialisation facts, natural pointer alignment") {
  Fixture f;
  Value* p = f.param(Type::scalar(f32p));
  Value* q = f.param(Type::scalar(f32p), 16);
  Value* n = f.param(Type::scalar(i32), 0, 8);
  Value* m = f.param(Type::scalar(i32));
  CHECK(f.info(p).divisibility[0] == 4);
  CHECK(f.info(q, promisedFacts(f.k)).divisibility[0] == 16);
  CHECK(f.info(n, promisedFacts(f.k)).divisibility[0] == 8);
  CHECK(f.info(m).divisibility[0] == 1);
  CHECK(f.info(m, {{3, 16}}).divisibility[0] == 16);
}

TEST_CASE("splat: constant over the whole tile, divisibility of the scalar") {
  Fixture f;
  Value* s = f.splat(f.b.intConst(64), {256});
  auto i = f.info(s);
  CHECK(i.constancy[0] == 256);
  CHECK(i.contiguity[0] == 1);
  CHECK(i.divisibility[0] == 64);
}

TEST_CASE("add: contiguous + constant stays contiguous, divisibility is the gcd") {
  Fixture f;
  Value* base = f.bin(BinOp::Mul, f.k.newValue(Type::scalar(i32)), f.b.intConst(1024), i32);
  (void)base;
  Value* pid = f.b.one(OpKind::ProgramId, {}, Type::scalar(i32));
  Value* off = f.bin(BinOp::Mul, pid, f.b.intConst(1024), i32);
  Value* offs = f.bin(BinOp::Add, f.splat(off, {1024}), f.arange(1024), i32);
  auto i = f.info(offs);
  CHECK(i.contiguity[0] == 1024);
  CHECK(i.divisibility[0] == 1024);
  Value* shifted = f.bin(BinOp::Add, f.arange(64), f.splat(f.b.intConst(2), {64}), i32);
  CHECK(f.info(shifted).contiguity[0] == 64);
  CHECK(f.info(shifted).divisibility[0] == 2);
}

TEST_CASE("sub: contiguous - constant stays contiguous, constant - contiguous does not") {
  Fixture f;
  Value* a = f.bin(BinOp::Sub, f.arange(64), f.splat(f.b.intConst(4), {64}), i32);
  Value* c = f.bin(BinOp::Sub, f.splat(f.b.intConst(4), {64}), f.arange(64), i32);
  CHECK(f.info(a).contiguity[0] == 64);
  CHECK(f.info(a).divisibility[0] == 4);
  CHECK(f.info(c).contiguity[0] == 1);
}

TEST_CASE("mul: divisibilities multiply, contiguity survives only a factor of 1") {
  Fixture f;
  Value* m = f.bin(BinOp::Mul, f.arange(64), f.splat(f.b.intConst(2), {64}), i32);
  Value* one = f.bin(BinOp::Mul, f.arange(64), f.splat(f.b.intConst(1), {64}), i32);
  CHECK(f.info(m).contiguity[0] == 1);
  CHECK(f.info(one).contiguity[0] == 64);  // a 1 stays a 1 through a splat: `arange<N>() * 1`
  Value* s = f.bin(BinOp::Mul, f.b.intConst(6), f.b.intConst(8), i32);
  CHECK(f.info(s).divisibility[0] >= 16);
  Value* sc = f.bin(BinOp::Mul, f.b.intConst(12), f.k.newValue(Type::scalar(i32)), i32);
  CHECK(f.info(sc).divisibility[0] == 4);
}

TEST_CASE("shl by a constant multiplies divisibility") {
  Fixture f;
  Value* x = f.param(Type::scalar(i32), 0, 4);
  Value* s = f.bin(BinOp::Shl, x, f.b.intConst(3), i32);
  CHECK(f.info(s, promisedFacts(f.k)).divisibility[0] == 32);
}

TEST_CASE("comparisons: a contiguous run against a bound divisible by D is constant in runs of D") {
  Fixture f;
  Value* n = f.param(Type::scalar(i32));
  Value* mask = f.bin(BinOp::Lt, f.arange(256), f.splat(n, {256}), i1);
  CHECK(f.info(mask).constancy[0] == 1);
  CHECK(f.info(mask, {{0, 16}}).constancy[0] == 16);
  CHECK(f.info(mask, {{0, 1024}}).constancy[0] == 256);  // capped by the extent
  Value* eq = f.bin(BinOp::Eq, f.arange(256), f.splat(n, {256}), i1);
  CHECK(f.info(eq, {{0, 16}}).constancy[0] == 1);  // == is not monotone
}

TEST_CASE("and of masks: constancy is the gcd") {
  Fixture f;
  Value* n = f.param(Type::scalar(i32));
  Value* a = f.bin(BinOp::Lt, f.arange(256), f.splat(n, {256}), i1);
  Value* c = f.bin(BinOp::Lt, f.arange(256), f.splat(f.b.intConst(64), {256}), i1);
  Value* m = f.bin(BinOp::And, a, c, i1);
  CHECK(f.info(c).constancy[0] == 64);
  CHECK(f.info(m, {{0, 16}}).constancy[0] == 16);
}

TEST_CASE("broadcast and expand_dims: new axes are constant, not contiguous") {
  Fixture f;
  Value* a = f.arange(64);
  Value* e = f.b.one(OpKind::ExpandDims, {a}, Type::tile(i32, {64, 1}));
  e->def->axis = 1;
  Value* b = f.b.one(OpKind::Broadcast, {e}, Type::tile(i32, {64, 32}));
  auto i = f.info(b);
  CHECK(i.contiguity[0] == 64);
  CHECK(i.contiguity[1] == 1);
  CHECK(i.constancy[1] == 32);
  // Along the new axis every element starts a run, and 0, 1, 2, ... share no factor: a row
  // start col(arange) * stride is aligned only as far as the stride is.
  CHECK(i.divisibility[1] == 1);
}

TEST_CASE("expand_dims of a constant-stepped tile keeps the divisibility every element has") {
  Fixture f;
  Value* s = f.b.one(OpKind::Splat, {f.b.intConst(48, i32)}, Type::tile(i32, {64}));
  Value* e = f.b.one(OpKind::ExpandDims, {s}, Type::tile(i32, {64, 1}));
  e->def->axis = 1;
  CHECK(f.info(e).divisibility[1] == 16);
}

TEST_CASE("trans swaps the facts of the two axes") {
  Fixture f;
  Value* e = f.b.one(OpKind::ExpandDims, {f.arange(16)}, Type::tile(i32, {1, 16}));
  e->def->axis = 0;
  Value* b = f.b.one(OpKind::Broadcast, {e}, Type::tile(i32, {8, 16}));
  Value* t = f.b.one(OpKind::Trans, {b}, Type::tile(i32, {16, 8}));
  CHECK(f.info(t).contiguity[0] == 16);
  CHECK(f.info(t).constancy[1] == 8);
}

TEST_CASE("addptr: contiguity of the offsets, divisibility in bytes") {
  Fixture f;
  Value* p = f.param(Type::scalar(f32p));
  Value* ptrs = f.b.one(OpKind::AddPtr, {f.splat(p, {128}), f.arange(128)}, Type::tile(f32p, {128}));
  CHECK(f.info(ptrs).contiguity[0] == 128);
  CHECK(f.info(ptrs).divisibility[0] == 4);
  CHECK(f.info(ptrs, {{0, 16}}).divisibility[0] == 16);
  Value* odd = f.b.one(OpKind::AddPtr, {ptrs, f.splat(f.b.intConst(1), {128})}, Type::tile(f32p, {128}));
  CHECK(f.info(odd, {{0, 16}}).divisibility[0] == 4);
}

TEST_CASE("select: facts of both arms, cut by the condition's constancy") {
  Fixture f;
  Value* n = f.param(Type::scalar(i32));
  Value* c = f.bin(BinOp::Lt, f.arange(64), f.splat(n, {64}), i1);
  Value* s = f.b.one(OpKind::Select, {c, f.arange(64), f.arange(64)}, Type::tile(i32, {64}));
  CHECK(f.info(s).contiguity[0] == 1);
  CHECK(f.info(s, {{0, 16}}).contiguity[0] == 16);
}

TEST_CASE("integer conversions keep the facts, to float they are lost") {
  Fixture f;
  Value* w = f.b.one(OpKind::Convert, {f.arange(32)}, Type::tile(ElemType::of(Scalar::I64), {32}));
  Value* fl = f.b.one(OpKind::Convert, {f.arange(32)}, Type::tile(ElemType::of(Scalar::F32), {32}));
  CHECK(f.info(w).contiguity[0] == 32);
  CHECK(f.info(fl).contiguity[0] == 1);
}

TEST_CASE("hints: multiple_of raises divisibility, max_contiguous raises contiguity") {
  Fixture f;
  Value* x = f.param(Type::scalar(i32));
  Value* h = f.b.one(OpKind::Hint, {x}, x->type);
  h->def->hint = HintKind::MultipleOf;
  h->def->intValue = 16;
  CHECK(f.info(h).divisibility[0] == 16);
  Value* t = f.b.one(OpKind::Load, {f.b.one(OpKind::AddPtr, {f.splat(f.param(Type::scalar(ElemType::pointerTo(Scalar::I32, true))), {64}), f.arange(64)}, Type::tile(ElemType::pointerTo(Scalar::I32, true), {64}))}, Type::tile(i32, {64}));
  Value* c = f.b.one(OpKind::Hint, {t}, t->type);
  c->def->hint = HintKind::MaxContiguous;
  c->def->intValue = 8;
  CHECK(f.info(t).contiguity[0] == 1);
  CHECK(f.info(c).contiguity[0] == 8);
}

TEST_CASE("loop induction variables: divisibility of the start and the step") {
  Fixture f;
  Op* loop = f.b.create(OpKind::For, {f.b.intConst(0), f.param(Type::scalar(i32)), f.b.intConst(64)}, {});
  Block* body = f.b.addRegion(loop);
  Value* iv = f.b.addArg(body, Type::scalar(i32), "i");
  f.b.block = body;
  f.b.create(OpKind::Yield, {}, {});
  CHECK(f.info(iv).divisibility[0] == 64);
}

TEST_CASE("loop-carried values: the facts that hold on every iteration") {
  // ptrs = p + arange(64); each iteration ptrs += step.
  auto carried = [](std::int64_t step) {
    Fixture f;
    Value* p = f.param(Type::scalar(f32p));
    Value* ptrs = f.b.one(OpKind::AddPtr, {f.splat(p, {64}), f.arange(64)}, Type::tile(f32p, {64}));
    Op* loop = f.b.create(OpKind::For, {f.b.intConst(0), f.b.intConst(10), f.b.intConst(1), ptrs}, {ptrs->type});
    Block* body = f.b.addRegion(loop);
    f.b.addArg(body, Type::scalar(i32), "i");
    Value* arg = f.b.addArg(body, ptrs->type, "ptrs");
    f.b.block = body;
    Value* next = f.b.one(OpKind::AddPtr, {arg, f.splat(f.b.intConst(step), {64})}, ptrs->type);
    f.b.create(OpKind::Yield, {next}, {});
    return analyzeAxes(f.k, {{0, 16}}).at(loop->results[0]);
  };
  CHECK(carried(64).contiguity[0] == 64);
  CHECK(carried(64).divisibility[0] == 16);
  CHECK(carried(1).divisibility[0] == 4);  // +1 element per iteration: only 4-byte aligned
}

TEST_CASE("access widths: min of contiguity, alignment, mask constancy and 16 bytes, with the reason") {
  Fixture f;
  Value* p = f.param(Type::scalar(f32p), 16);
  Value* n = f.param(Type::scalar(i32));
  Value* ptrs = f.b.one(OpKind::AddPtr, {f.splat(p, {256}), f.arange(256)}, Type::tile(f32p, {256}));
  Value* mask = f.bin(BinOp::Lt, f.arange(256), f.splat(n, {256}), i1);
  Op* ld = f.b.create(OpKind::Load, {ptrs, mask}, {Type::tile(ElemType::of(Scalar::F32), {256})});
  chooseAccessWidths(f.k, promisedFacts(f.k));
  CHECK(ld->access.vec == 1);
  CHECK(ld->access.limits.size() == 1);
  CHECK(ld->access.limits[0].find("mask") != std::string::npos);
  chooseAccessWidths(f.k, {{0, 16}, {1, 16}});
  CHECK(ld->access.vec == 4);
  CHECK(ld->access.limits.empty());
  chooseAccessWidths(f.k, {{0, 8}, {1, 16}});
  CHECK(ld->access.vec == 2);
  CHECK(ld->access.limits.size() == 1);
  CHECK(ld->access.limits[0].find("multiple of 8 bytes") != std::string::npos);
}

TEST_CASE("rem of a non-negative dividend is non-negative whatever the divisor's sign") {
  // pid % n >= 0 for any n (C++ remainders take the dividend's sign; tilecc::rem gives 0 for 0
  // and -1), so a row index built from it keeps its runs through a later `% M`; pid / n does not.
  Fixture f;
  Value* n = f.param(Type::scalar(i32));
  Value* m = f.param(Type::scalar(i32));  // a multiple of 16 (the fact below), sign unknown
  const ParamFacts m16{{1, 16}};
  Value* pid = f.b.one(OpKind::ProgramId, {}, Type::scalar(i32));
  auto rows = [&](Value* q) {
    Value* start = f.bin(BinOp::Mul, q, f.b.intConst(64), i32);
    Value* r = f.bin(BinOp::Add, f.splat(start, {64}), f.arange(64), i32);
    return f.bin(BinOp::Rem, r, f.splat(m, {64}), i32);
  };
  Value* fromRem = rows(f.bin(BinOp::Rem, pid, n, i32));
  Value* fromDiv = rows(f.bin(BinOp::Div, pid, n, i32));
  CHECK(f.info(fromRem, m16).contiguity[0] == 16);
  CHECK(f.info(fromDiv, m16).contiguity[0] == 1);
}

TEST_CASE("a dividend's sign may rest on program ids and arguments: assumed only by a specialised variant, as a whole") {
  // (q * 64 + arange) % m with q = pid / n (sign unknown): no runs by default, nor where nothing
  // checks what is assumed; in a specialised variant the analysis keeps runs of 16 and assumes
  // the dividend itself (the launcher bounds it over the grid: the weakest fact).
  Fixture f;
  Value* n = f.param(Type::scalar(i32));
  Value* m = f.param(Type::scalar(i32));
  const ParamFacts m16{{1, 16}};
  Value* pid = f.b.one(OpKind::ProgramId, {}, Type::scalar(i32));
  Value* q = f.bin(BinOp::Div, pid, n, i32);
  q->name = "q";
  Value* start = f.bin(BinOp::Mul, q, f.b.intConst(64), i32);
  Value* r = f.bin(BinOp::Add, f.splat(start, {64}), f.arange(64), i32);
  Value* wrapped = f.bin(BinOp::Rem, r, f.splat(m, {64}), i32);
  CHECK(analyzeAxes(f.k, m16).at(wrapped).contiguity[0] == 1);
  std::set<const Value*> unchecked;
  CHECK(analyzeAxes(f.k, m16, &unchecked).at(wrapped).contiguity[0] == 1);
  CHECK(unchecked.empty());
  std::set<const Value*> assumed;
  CHECK(analyzeAxes(f.k, m16, &assumed, true).at(wrapped).contiguity[0] == 16);
  CHECK(assumed == std::set<const Value*>{r});
  // Nothing to gain (the divisor is not a multiple of 16): nothing assumed.
  std::set<const Value*> none;
  (void)analyzeAxes(f.k, {}, &none, true);
  CHECK(none.empty());
}

TEST_CASE("never assumed non-negative: values of memory or of a loop; parameters where the rest is proven") {
  Fixture f;
  Value* m = f.param(Type::scalar(i32));
  Value* k0 = f.param(Type::scalar(i32));
  Value* starts = f.param(Type::scalar(ElemType::pointerTo(Scalar::I32, true)));
  Value* pid = f.b.one(OpKind::ProgramId, {}, Type::scalar(i32));
  auto wrap = [&](Builder& b, Value* start) {
    Value* r = b.binary(BinOp::Add, b.one(OpKind::Splat, {start}, Type::tile(i32, {64})), b.one(OpKind::Arange, {}, Type::tile(i32, {64})), i32);
    return b.binary(BinOp::Rem, r, b.one(OpKind::Splat, {m}, Type::tile(i32, {64})), i32);
  };
  Value* loaded = f.b.one(OpKind::Load, {starts}, Type::scalar(i32));
  Value* memory = wrap(f.b, loaded);
  // k0 * 64 + max(loaded, 0) * 16: not a value the launcher can bound, but non-negative once k0 is.
  Value* clamped = f.bin(BinOp::Add, f.bin(BinOp::Mul, k0, f.b.intConst(64), i32),
                         f.bin(BinOp::Mul, f.bin(BinOp::Max, loaded, f.b.intConst(0), i32), f.b.intConst(16), i32), i32);
  Value* offset = wrap(f.b, clamped);
  // pid * -64 (never non-negative beyond program 0): the launcher's bound decides.
  Value* negStart = f.bin(BinOp::Mul, pid, f.b.intConst(-64), i32);
  Value* neg = wrap(f.b, negStart);
  // Inside a loop: the loop's scalars are not the launcher's.
  Op* loop = f.b.create(OpKind::For, {f.b.intConst(0), f.b.intConst(4), f.b.intConst(1)}, {});
  Block* body = f.b.addRegion(loop);
  Value* iv = f.b.addArg(body, Type::scalar(i32), "i");
  Builder in{f.k, body, {}};
  Value* inner = wrap(in, in.binary(BinOp::Sub, iv, k0, i32));
  in.create(OpKind::Yield, {}, {});
  std::set<const Value*> assumed;
  const auto info = analyzeAxes(f.k, {{0, 16}}, &assumed, true);
  CHECK(info.at(memory).contiguity[0] == 1);
  CHECK(info.at(inner).contiguity[0] == 1);
  CHECK(info.at(offset).contiguity[0] == 16);
  CHECK(info.at(neg).contiguity[0] == 16);
  CHECK(assumed == std::set<const Value*>{k0, neg->def->operands[0]});
}

TEST_CASE("access widths: an assumed sign becomes a check of the launcher over the grid, only where it widens an access") {
  Fixture f;
  Value* x = f.param(Type::scalar(f32p), 16);
  Value* m = f.param(Type::scalar(i32), 0, 16);
  Value* n = f.param(Type::scalar(i32));
  Value* pid = f.b.one(OpKind::ProgramId, {}, Type::scalar(i32));
  Value* q = f.bin(BinOp::Div, pid, n, i32);
  q->name = "q";
  Value* start = f.bin(BinOp::Mul, q, f.b.intConst(64), i32);
  Value* rows = f.bin(BinOp::Rem, f.bin(BinOp::Add, f.splat(start, {64}), f.arange(64), i32), f.splat(m, {64}), i32);
  Value* ptrs = f.b.one(OpKind::AddPtr, {f.splat(x, {64}), rows}, Type::tile(f32p, {64}));
  Op* ld = f.b.create(OpKind::Load, {ptrs}, {Type::tile(ElemType::of(Scalar::F32), {64})});
  auto traps = [&] {
    int c = 0;
    for (const auto& o : f.k.body->ops) c += o->kind == OpKind::Assert;
    return c;
  };
  chooseAccessWidths(f.k, promisedFacts(f.k));  // the general kernel: nothing assumed
  CHECK(ld->access.vec == 1);
  CHECK(f.k.gridChecks.empty());
  f.k.specialised = true;
  chooseAccessWidths(f.k, {{0, 4}, {1, 16}});  // x only 4-byte aligned: no wider access, no check
  CHECK(ld->access.vec == 1);
  CHECK(f.k.gridChecks.empty());
  chooseAccessWidths(f.k, promisedFacts(f.k));
  CHECK(ld->access.vec == 4);
  REQUIRE(f.k.gridChecks.size() == 1);
  CHECK(f.k.gridChecks[0].what == "program_id(0) / p2 * 64 + arange<64>() >= 0");
  CHECK(f.k.gridChecks[0].expr == *gridExprOf(f.k, rows->def->operands[0]));
  CHECK(traps() == 0);  // nothing is checked in the kernel
}

TEST_CASE("grid expressions: what the launcher can bound, printed as the source and as IR") {
  Fixture f;
  Value* k0 = f.param(Type::scalar(i32));
  Value* starts = f.param(Type::scalar(ElemType::pointerTo(Scalar::I32, true)));
  Value* pid = f.b.one(OpKind::ProgramId, {}, Type::scalar(i32));
  Value* e = f.bin(BinOp::Sub, f.bin(BinOp::Mul, pid, f.b.intConst(64), i32), f.bin(BinOp::Add, k0, f.b.intConst(2), i32), i32);
  auto ge = gridExprOf(f.k, e);
  REQUIRE(ge);
  auto name = [&](int i) { return f.k.params[static_cast<std::size_t>(i)]->name; };
  CHECK(describeGridExpr(*ge, name) == "program_id(0) * 64 - (p0 + 2)");
  CHECK(printGridExpr(*ge, name) == "sub(mul(program_id(0), 64), add(p0, 2))");
  CHECK(!gridExprOf(f.k, f.b.one(OpKind::Load, {starts}, Type::scalar(i32))));  // memory
  Value* wide = f.b.one(OpKind::Convert, {pid}, Type::scalar(ElemType::of(Scalar::I64)));
  REQUIRE(gridExprOf(f.k, wide));
  CHECK(gridExprOf(f.k, wide)->kind == GridExpr::Kind::I64);
  Value* narrow = f.b.one(OpKind::Convert, {wide}, Type::scalar(ElemType::of(Scalar::I8)));
  CHECK(!gridExprOf(f.k, narrow));  // a narrowing conversion wraps
}

TEST_CASE("a parameter's assumed sign becomes a launcher condition where the dividend is not the launcher's") {
  Fixture f;
  Value* x = f.param(Type::scalar(f32p), 16);
  Value* m = f.param(Type::scalar(i32), 0, 16);
  Value* k0 = f.param(Type::scalar(i32));
  Value* starts = f.param(Type::scalar(ElemType::pointerTo(Scalar::I32, true)));
  Value* loaded = f.b.one(OpKind::Load, {starts}, Type::scalar(i32));
  // (k0 * 16 + max(loaded, 0) * 16 + arange) % m
  Value* start = f.bin(BinOp::Add, f.bin(BinOp::Mul, k0, f.b.intConst(16), i32),
                       f.bin(BinOp::Mul, f.bin(BinOp::Max, loaded, f.b.intConst(0), i32), f.b.intConst(16), i32), i32);
  Value* rows = f.bin(BinOp::Rem, f.bin(BinOp::Add, f.splat(start, {64}), f.arange(64), i32), f.splat(m, {64}), i32);
  Value* ptrs = f.b.one(OpKind::AddPtr, {f.splat(x, {64}), rows}, Type::tile(f32p, {64}));
  Op* ld = f.b.create(OpKind::Load, {ptrs}, {Type::tile(ElemType::of(Scalar::F32), {64})});
  // The general kernel (nothing assumed): one element per access, no condition, no check.
  chooseAccessWidths(f.k, promisedFacts(f.k));
  CHECK(ld->access.vec == 1);
  CHECK(f.k.assumed.empty());
  // A specialised variant: k0 >= 0 joins its conditions, and its max() needs nothing.
  f.k.assumed = {{0, 16}};
  f.k.specialised = true;
  chooseAccessWidths(f.k, variantFacts(f.k));
  CHECK(ld->access.vec == 4);
  CHECK(f.k.assumed == std::vector<std::pair<int, std::int64_t>>{{0, 16}, {2, kNonNegative}});
  CHECK(f.k.gridChecks.empty());
  for (const auto& o : f.k.body->ops) CHECK(o->kind != OpKind::Assert);
}
