// The im2col analysis on IR parsed from text (a 3x3 convolution's input the way the frontend
// lowers it): one case per rule, and the changes that must make it refuse.
#include <doctest/doctest.h>

#include "analysis/Im2colAccess.h"
#include "parsed_ir.hpp"

#include <string>

using namespace tilecc::ir;
using namespace tilecc::ir::testing;

namespace {

// Pixels m = program_id(0) * 16 + arange<16>() as (m / (h·wd), m / wd % h, m % wd), moved by the
// tap (t / 3 − 1, t % 3 − 1), 16 channels, the padding mask.
const std::string kConv = R"(kernel @conv "conv" num_warps=4 num_stages=3 (%x: ptr<const f16>, %y: ptr<f16>, %h: i32, %wd: i32, %c: i32) {
  %rm_pid = program_id [axis=0] : i32
  %rm_c = const 16 : i32
  %rm_mul = binary.mul %rm_pid, %rm_c : i32
  %rm_range = arange : tile<16xi32>
  %rm_splat = splat %rm_mul : tile<16xi32>
  %rm = binary.add %rm_splat, %rm_range : tile<16xi32>
  %oy_splat = splat %wd : tile<16xi32>
  %oy_div = binary.div %rm, %oy_splat : tile<16xi32>
  %oy_splat_1 = splat %h : tile<16xi32>
  %oy = binary.rem %oy_div, %oy_splat_1 : tile<16xi32>
  %ox = binary.rem %rm, %oy_splat : tile<16xi32>
  %t_c = const 0 : i32
  %t_c_1 = const 9 : i32
  %t_c_2 = const 1 : i32
  for %t = %t_c lt %t_c_1 step %t_c_2 {
    %iy_c = const 3 : i32
    %iy_div = binary.div %t, %iy_c : i32
    %iy_sub = binary.sub %iy_div, %t_c_2 : i32
    %iy_splat = splat %iy_sub : tile<16xi32>
    %iy = binary.add %oy, %iy_splat : tile<16xi32>
    %ix_rem = binary.rem %t, %iy_c : i32
    %ix_sub = binary.sub %ix_rem, %t_c_2 : i32
    %ix_splat = splat %ix_sub : tile<16xi32>
    %ix = binary.add %ox, %ix_splat : tile<16xi32>
    %a_mul = binary.mul %h, %wd : i32
    %a_splat = splat %a_mul : tile<16xi32>
    %a_div = binary.div %rm, %a_splat : tile<16xi32>
    %a_mul_1 = binary.mul %a_div, %oy_splat_1 : tile<16xi32>
    %a_mul_2 = binary.mul %a_mul_1, %oy_splat : tile<16xi32>
    %a_mul_3 = binary.mul %iy, %oy_splat : tile<16xi32>
    %a_add = binary.add %a_mul_2, %a_mul_3 : tile<16xi32>
    %a_add_1 = binary.add %a_add, %ix : tile<16xi32>
    %a_dims = expand_dims %a_add_1 [axis=1] : tile<16x1xi32>
    %a_splat_1 = splat %c : tile<16x1xi32>
    %a_mul_4 = binary.mul %a_dims, %a_splat_1 : tile<16x1xi32>
    %a_splat_2 = splat %x : tile<16x1xptr<const f16>>
    %a_ptr = addptr %a_splat_2, %a_mul_4 : tile<16x1xptr<const f16>>
    %a_dims_1 = expand_dims %rm_range [axis=0] : tile<1x16xi32>
    %a_bcast = broadcast %a_ptr : tile<16x16xptr<const f16>>
    %a_bcast_1 = broadcast %a_dims_1 : tile<16x16xi32>
    %a_ptr_1 = addptr %a_bcast, %a_bcast_1 : tile<16x16xptr<const f16>>
    %a_splat_3 = splat %t_c : tile<16xi32>
    %a_ge = binary.ge %iy, %a_splat_3 : tile<16xi1>
    %a_lt = binary.lt %iy, %oy_splat_1 : tile<16xi1>
    %a_and = binary.and %a_ge, %a_lt : tile<16xi1>
    %a_ge_1 = binary.ge %ix, %a_splat_3 : tile<16xi1>
    %a_and_1 = binary.and %a_and, %a_ge_1 : tile<16xi1>
    %a_lt_1 = binary.lt %ix, %oy_splat : tile<16xi1>
    %a_and_2 = binary.and %a_and_1, %a_lt_1 : tile<16xi1>
    %a_dims_2 = expand_dims %a_and_2 [axis=1] : tile<16x1xi1>
    %a_splat_4 = splat %c : tile<16xi32>
    %a_lt_2 = binary.lt %rm_range, %a_splat_4 : tile<16xi1>
    %a_dims_3 = expand_dims %a_lt_2 [axis=0] : tile<1x16xi1>
    %a_bcast_2 = broadcast %a_dims_2 : tile<16x16xi1>
    %a_bcast_3 = broadcast %a_dims_3 : tile<16x16xi1>
    %a_and_3 = binary.and %a_bcast_2, %a_bcast_3 : tile<16x16xi1>
    %a_c = const 0.0 : f16
    %a_splat_5 = splat %a_c : tile<16x16xf16>
    %a = load %a_ptr_1, %a_and_3, %a_splat_5 : tile<16x16xf16>
    %store_c = const 256 : i32
    %store_mul = binary.mul %t, %store_c : i32
    %store_ptr = addptr %y, %store_mul : ptr<f16>
    %store_dims = expand_dims %rm_range [axis=1] : tile<16x1xi32>
    %store_splat = splat %rm_c : tile<16x1xi32>
    %store_mul_1 = binary.mul %store_dims, %store_splat : tile<16x1xi32>
    %store_splat_1 = splat %store_ptr : tile<16x1xptr<f16>>
    %store_ptr_1 = addptr %store_splat_1, %store_mul_1 : tile<16x1xptr<f16>>
    %store_bcast = broadcast %store_ptr_1 : tile<16x16xptr<f16>>
    %store_ptr_2 = addptr %store_bcast, %a_bcast_1 : tile<16x16xptr<f16>>
    store %store_ptr_2, %a
    yield
  }
}
)";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

struct Parsed {
  std::unique_ptr<Kernel> k;
  const Op* loop = nullptr;
  const Op* load = nullptr;
  const Value* named(const std::string& name) const { return testing::named(*k, name); }
};

Parsed parseConv(const std::string& text) {
  Parsed p{parseOne(text)};
  walk(static_cast<const Block&>(*p.k->body), [&](const Op& o) {
    if (o.kind == OpKind::For) p.loop = &o;
    if (o.kind == OpKind::Load) p.load = &o;
  });
  REQUIRE(p.loop);
  REQUIRE(p.load);
  return p;
}

std::optional<Im2colBox> analyse(const Parsed& p) { return im2colBox(*p.k, *p.loop, *p.load); }

}  // namespace

TEST_CASE("im2col: digits spelt m / wd % h and m / (h * wd), offsets from the mask, the pointer agreeing") {
  auto p = parseConv(kConv);
  auto box = analyse(p);
  REQUIRE(box);
  const Value* h = p.named("h");
  const Value* wd = p.named("wd");
  const Value* c = p.named("c");
  CHECK(box->extents.size() == 2);
  CHECK(box->extents[0] == Poly::atom(h));
  CHECK(box->extents[1] == Poly::atom(wd));
  CHECK(box->offsets[0] == Poly::atom(p.named("iy_div")) - Poly::constant(1));
  CHECK(box->offsets[1] == Poly::atom(p.named("ix_rem")) - Poly::constant(1));
  CHECK(box->pixelStride == Poly::atom(c));
  CHECK(box->channels == Poly::atom(c));
  CHECK(box->channelStart.isZero());
  CHECK(box->images == Poly::constant(kUnboundedDim));  // no mask on the image index
  CHECK(box->rowStart == Poly::atom(p.named("rm_pid")) * Poly::constant(16));
  CHECK(box->rows == 16);
  CHECK(box->cols == 16);
}

TEST_CASE("im2col: m % (h * wd) / wd is the same digit as m / wd % h") {
  std::string t = replaced(kConv, "%oy_div = binary.div %rm, %oy_splat : tile<16xi32>", "%oy_div = binary.rem %rm, %hw_splat : tile<16xi32>");
  t = replaced(t, "%oy = binary.rem %oy_div, %oy_splat_1 : tile<16xi32>", "%oy = binary.div %oy_div, %oy_splat : tile<16xi32>");
  t = replaced(t, "%oy_splat = splat %wd : tile<16xi32>",
               "%oy_splat = splat %wd : tile<16xi32>\n  %hw = binary.mul %h, %wd : i32\n  %hw_splat = splat %hw : tile<16xi32>\n  %oy_splat_1 = splat %h : tile<16xi32>");
  t = replaced(t, "  %oy_splat_1 = splat %h : tile<16xi32>\n  %oy = ", "  %oy = ");
  auto p = parseConv(t);
  CHECK(analyse(p));
}

TEST_CASE("im2col: the mask bounds the image index: N from m < n * h * wd") {
  std::string t = replaced(kConv, "(%x: ptr<const f16>, %y: ptr<f16>, %h: i32, %wd: i32, %c: i32)",
                           "(%x: ptr<const f16>, %y: ptr<f16>, %h: i32, %wd: i32, %c: i32, %n: i32)");
  t = replaced(t, "%a_and_2 = binary.and %a_and_1, %a_lt_1 : tile<16xi1>",
               "%a_and_2x = binary.and %a_and_1, %a_lt_1 : tile<16xi1>\n    %nm = binary.mul %n, %a_mul : i32\n"
               "    %nm_splat = splat %nm : tile<16xi32>\n    %in = binary.lt %rm, %nm_splat : tile<16xi1>\n"
               "    %a_and_2 = binary.and %a_and_2x, %in : tile<16xi1>");
  auto p = parseConv(t);
  auto box = analyse(p);
  REQUIRE(box);
  CHECK(box->images == Poly::atom(p.named("n")));
}

TEST_CASE("im2col: refused without a padding bound (the pointers would read the next row)") {
  auto p = parseConv(replaced(kConv, "%a_and_2 = binary.and %a_and_1, %a_lt_1 : tile<16xi1>", "%a_and_2 = binary.and %a_and_1, %a_and_1 : tile<16xi1>"));
  CHECK_FALSE(analyse(p));
}

TEST_CASE("im2col: refused where the pointer's offset is not the mask's") {
  // The pointer moves by the tap's column, the mask tests the tap's row.
  auto p = parseConv(replaced(kConv, "%ix = binary.add %ox, %ix_splat : tile<16xi32>", "%ix = binary.add %ox, %iy_splat : tile<16xi32>\n    %ix_unused = binary.add %ox, %ix_splat : tile<16xi32>"));
  auto q = parseConv(replaced(kConv, "%a_add_1 = binary.add %a_add, %ix : tile<16xi32>", "%a_add_1 = binary.add %a_add, %iy : tile<16xi32>"));
  CHECK_FALSE(analyse(q));
  CHECK(analyse(p));  // the same offset in both: still a box (the tap's row twice)
}

TEST_CASE("im2col: refused without a channel bound (TMA would fill what the pointers read past c)") {
  auto p = parseConv(replaced(kConv, "%a_and_3 = binary.and %a_bcast_2, %a_bcast_3 : tile<16x16xi1>", "%a_and_3 = binary.and %a_bcast_2, %a_bcast_2 : tile<16x16xi1>"));
  CHECK_FALSE(analyse(p));
}

TEST_CASE("im2col: refused where the rows are not program_id * BM + arange (a digit of something else)") {
  auto p = parseConv(replaced(kConv, "%rm = binary.add %rm_splat, %rm_range : tile<16xi32>", "%rm_twice = binary.add %rm_splat, %rm_range : tile<16xi32>\n  %rm = binary.add %rm_twice, %rm_range : tile<16xi32>"));
  CHECK_FALSE(analyse(p));
}

TEST_CASE("im2col: bounds written the other way round (h > iy, 0 <= ix) give the same offsets") {
  // %a_lt = iy < h  →  h > iy;  %a_ge_1 = ix >= 0  →  0 <= ix.
  std::string t = replaced(kConv, "%a_lt = binary.lt %iy, %oy_splat_1 : tile<16xi1>", "%a_lt = binary.gt %oy_splat_1, %iy : tile<16xi1>");
  t = replaced(t, "%a_ge_1 = binary.ge %ix, %a_splat_3 : tile<16xi1>", "%a_ge_1 = binary.le %a_splat_3, %ix : tile<16xi1>");
  auto p = parseConv(t);
  auto box = analyse(p);
  REQUIRE(box);
  CHECK(box->offsets[0] == Poly::atom(p.named("iy_div")) - Poly::constant(1));
  CHECK(box->offsets[1] == Poly::atom(p.named("ix_rem")) - Poly::constant(1));
}
