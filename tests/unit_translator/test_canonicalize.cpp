// canonicalize on IR parsed from text: what the rewrites leave behind must not point at ops
// they removed (the cases here were use-after-free reads before; AddressSanitizer reports those,
// these checks fail without it).
#include <doctest/doctest.h>

#include "parsed_ir.hpp"
#include "transform/Passes.h"

#include <cstdint>
#include <set>
#include <vector>

using namespace tilecc::ir;
using namespace tilecc::ir::testing;

namespace {

std::set<const Op*> liveOps(const Kernel& k) {
  std::set<const Op*> ops;
  walk(static_cast<const Block&>(*k.body), [&](const Op& o) { ops.insert(&o); });
  return ops;
}

}  // namespace

TEST_CASE("an inlined constant if: its results no longer name it, and the if reading them stays") {
  // `if (true ? c : d)`: the inner if is inlined; the outer one must read %c through it.
  auto k = parseOne(R"(kernel @k "k" num_warps=4 num_stages=3 (%a: i32, %out: ptr<i32>) {
  %t = const 1 : i1
  %zero = const 0 : i32
  %c = binary.ne %a, %zero : i1
  if %t -> (%sel: i1) {
    yield %c
  } else {
    %d = binary.lt %a, %zero : i1
    yield %d
  }
  if %sel {
    store %out, %a
    yield
  } else {
    yield
  }
}
)");
  canonicalize(*k);
  const Value* sel = named(*k, "sel");
  REQUIRE(sel);
  CHECK(sel->def == nullptr);  // the inner if is gone
  const auto live = liveOps(*k);
  int ifs = 0, stores = 0;
  for (const Op* o : live) {
    ifs += o->kind == OpKind::If;
    stores += o->kind == OpKind::Store;
    for (const Value* v : o->operands) CHECK_MESSAGE((!v->def || live.count(v->def)), "an operand of a live op names a removed op");
    if (o->kind == OpKind::If) CHECK(o->operands[0] == named(*k, "c"));
  }
  CHECK(ifs == 1);
  CHECK(stores == 1);
}

TEST_CASE("constant shifts fold where C++ and the target agree, and only there") {
  auto k = parseOne(R"(kernel @k "k" num_warps=4 num_stages=3 (%out: ptr<i32>, %uout: ptr<u32>) {
  %one = const 1 : i32
  %three = const 3 : i32
  %big = const 31 : i32
  %wide = const 32 : i32
  %uone = const 1 : u32
  %ubig = const 31 : u32
  %r = binary.shr %one, %three : i32
  %l = binary.shl %one, %three : i32
  %ovf = binary.shl %one, %big : i32
  %out_of_range = binary.shl %one, %wide : i32
  %ul = binary.shl %uone, %ubig : u32
  store %out, %r
  store %out, %l
  store %out, %ovf
  store %out, %out_of_range
  store %uout, %ul
}
)");
  canonicalize(*k);
  std::vector<const Op*> stored;
  walk(static_cast<const Block&>(*k->body), [&](const Op& o) {
    if (o.kind == OpKind::Store) stored.push_back(o.operands[1]->def);
  });
  REQUIRE(stored.size() == 5);
  auto constant = [](const Op* o, std::int64_t v) { return o && o->kind == OpKind::Constant && o->intValue == v; };
  CHECK(constant(stored[0], 0));       // 1 >> 3
  CHECK(constant(stored[1], 8));       // 1 << 3
  CHECK(stored[2]->kind == OpKind::Binary);  // 1 << 31 overflows int: left to run time
  CHECK(stored[3]->kind == OpKind::Binary);  // a count of 32: the target's clamped shift decides
  CHECK(constant(stored[4], std::int64_t{1} << 31));  // unsigned: no overflow
}

TEST_CASE("min(u, 0) of unsigned values is the zero, also when the zero went through trans") {
  auto k = parseOne(R"(kernel @k "k" num_warps=4 num_stages=3 (%x: u8, %out: ptr<u8>) {
  %z = const 0 : u8
  %zs = splat %z : tile<32x1xu8>
  %zt = trans %zs : tile<1x32xu8>
  %xs = splat %x : tile<1x32xu8>
  %m = binary.min %zt, %xs : tile<1x32xu8>
  %ps = splat %out : tile<1x32xptr<u8>>
  store %ps, %m
}
)");
  canonicalize(*k);
  const Op* stored = nullptr;
  walk(static_cast<const Block&>(*k->body), [&](const Op& o) {
    if (o.kind == OpKind::Store) stored = o.operands[1]->def;
  });
  REQUIRE(stored);
  CHECK(stored->kind != OpKind::Binary);  // the min is gone: the zero tile is stored
}

TEST_CASE("scalarConstant: the constant a tile is made of, through the ops that only place it") {
  auto k = parseOne(R"(kernel @k "k" num_warps=4 num_stages=3 (%a: f32, %out: ptr<f32>) {
  %zero = const 0.0 : f32
  %row = splat %zero : tile<32xf32>
  %col = expand_dims %row [axis=0] : tile<1x32xf32>
  %wide = broadcast %col : tile<16x32xf32>
  %turned = trans %wide : tile<32x16xf32>
  %other = splat %a : tile<32xf32>
  %sum = binary.add %row, %other : tile<32xf32>
  %ptrs = splat %out : tile<32xptr<f32>>
  store %ptrs, %sum
}
)");
  const Op* zero = named(*k, "zero")->def;
  for (const char* name : {"zero", "row", "col", "wide", "turned"}) CHECK_MESSAGE(scalarConstant(named(*k, name)) == zero, name);
  CHECK(scalarConstant(named(*k, "other")) == nullptr);  // a splat of a parameter
  CHECK(scalarConstant(named(*k, "sum")) == nullptr);    // computed from the constant
}
