// canonicalize on IR parsed from text: what the rewrites leave behind must not point at ops
// they removed (the cases here were use-after-free reads before; AddressSanitizer reports those,
// these checks fail without it).
#include <doctest/doctest.h>

#include "ir/Parser.h"
#include "transform/Passes.h"

#include <set>

using namespace tilecc::ir;

namespace {

std::unique_ptr<Kernel> parseOne(const std::string& text) {
  std::string error;
  auto ks = parse(text, "test.ir", error);
  REQUIRE_MESSAGE(error.empty(), error);
  REQUIRE(ks.size() == 1);
  return std::move(ks[0]);
}

const Value* named(const Kernel& k, const std::string& name) {
  for (const auto& v : k.values)
    if (v->name == name) return v.get();
  return nullptr;
}

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
