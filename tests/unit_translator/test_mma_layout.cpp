// The accumulator layouts of dot: warp grids, chained dots, small tiles.
#include <doctest/doctest.h>

#include "ir/Layout.h"

#include <set>
#include <utility>

using namespace tilecc::ir;

TEST_CASE("mma layout: m16n8 fragments as a blocked layout") {
  const Layout l = mmaLayout({128, 128}, 8);
  CHECK(isMmaLayout(l));
  CHECK(l.spt == std::vector<int>{1, 2});
  CHECK(l.tpw == std::vector<int>{8, 4});
  // Each thread holds an even number of 8-row groups: rows pair into m16 tiles.
  CHECK(axisGeom(l, 0, 128).regs % 2 == 0);
}

TEST_CASE("mma layout: the squarest warp tile") {
  CHECK(mmaLayout({128, 128}, 8).wpc == std::vector<int>{2, 4});  // 64x32 per warp
  CHECK(mmaLayout({128, 128}, 4).wpc == std::vector<int>{2, 2});  // 64x64
  CHECK(mmaLayout({128, 64}, 8).wpc == std::vector<int>{4, 2});   // 32x32
  CHECK(mmaLayout({32, 32}, 1).wpc == std::vector<int>{1, 1});
}

TEST_CASE("mma layout: chained dots put every warp along M") {
  CHECK(mmaLayout({128, 64}, 8, true).wpc == std::vector<int>{8, 1});
  CHECK(mmaLayout({128, 128}, 8, true).wpc == std::vector<int>{8, 1});
  // Too few rows for 16 per warp: the usual grid.
  CHECK(mmaLayout({64, 64}, 8, true).wpc == mmaLayout({64, 64}, 8).wpc);
}

TEST_CASE("mma layout: tiles smaller than the warps replicate along N, never split rows") {
  const Layout l = mmaLayout({16, 16}, 4);
  CHECK(l.wpc == std::vector<int>{1, 4});
  CHECK(axisGeom(l, 1, 16).replicated);
  CHECK(axisGeom(l, 0, 16).regs == 2);
  CHECK_FALSE(isMmaLayout(defaultLayout({16, 16}, 4)));
}

// The wgmma accumulator (PTX ISA, "Matrix Fragments for wgmma.mma_async.m64nNk16", figure
// of D): in each 64-row block, warp w of the warp group owns rows 16w..16w+15; thread t holds
// d[i] at row 16w + t/4 + 8·((i/2) % 2), column 8·(i/4) + 2·(t % 4) + i % 2. The layout's
// register numbering differs (row-major over its axes); the sets must be the same.
TEST_CASE("wgmma layout: every thread holds the PTX fragment of every 64-row block") {
  for (int warps : {4, 8}) {
    for (int M : {64 * warps / 4, 128 * warps / 4}) {
      const int N = 48;
      const Layout l = wgmmaLayout(warps);
      CHECK(isWgmmaLayout(l));
      CHECK_FALSE(isMmaLayout(l));
      const std::vector<int> shape{M, N};
      CHECK(numRegs(l, shape) == M * N / (32 * warps));
      for (int warp = 0; warp < warps; ++warp)
        for (int lane = 0; lane < 32; ++lane) {
          std::set<std::pair<int, int>> got, want;
          for (int r = 0; r < numRegs(l, shape); ++r) {
            const auto c = coordinates(l, shape, warp, lane, r);
            got.insert({c[0], c[1]});
          }
          const int group = warp / 4, w = warp % 4;
          for (int block = 0; block < M / (64 * (warps / 4)); ++block)
            for (int i = 0; i < N / 2; ++i)
              want.insert({(block * (warps / 4) + group) * 64 + 16 * w + lane / 4 + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * (lane % 4) + i % 2});
          CHECK(got == want);
          CoordinateMap map(l, shape);
          map.thread(warp, lane);
          for (int r = 0; r < numRegs(l, shape); ++r) {
            int c[2];
            map.at(r, c);
            CHECK(std::vector<int>{c[0], c[1]} == coordinates(l, shape, warp, lane, r));
          }
        }
    }
  }
}

TEST_CASE("wgmma layout: registers of one 64-row block come in wgmma's row pairs") {
  // Register digit d along M: run d % 2 of pass d / 2 (8 rows apart, then 16·warps apart).
  const AxisGeom x = axisGeom(wgmmaLayout(4), 0, 128);
  CHECK(x.regs == 4);
  CHECK(registerOffset(x, 0) == 0);
  CHECK(registerOffset(x, 1) == 8);
  CHECK(registerOffset(x, 2) == 64);
  CHECK(registerOffset(x, 3) == 72);
  CHECK(threadBase(wgmmaLayout(4), 0, 3, 5) == 48 + 1);
}

// A staged epilogue's layout (AssignLayouts): each warp holds the elements it held in the dot's
// accumulator, `vec` consecutive ones per thread along N, every element once.
namespace {
std::set<std::pair<int, int>> warpElements(const Layout& l, const std::vector<int>& shape, int warp) {
  std::set<std::pair<int, int>> s;
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < numRegs(l, shape); ++r) {
      const auto c = coordinates(l, shape, warp, lane, r);
      s.insert({c[0], c[1]});
    }
  return s;
}
}  // namespace

TEST_CASE("warp-local layout: each warp keeps its elements, vec per thread along N") {
  struct Case {
    Layout src;
    std::vector<int> shape;
    int warps;
  };
  const Case cases[] = {{wgmmaLayout(8), {128, 128}, 8}, {wgmmaLayout(8), {256, 64}, 8}, {wgmmaLayout(4), {64, 256}, 4},
                        {mmaLayout({128, 64}, 8, true), {128, 64}, 8}, {mmaLayout({128, 128}, 4, true), {128, 128}, 4}};
  for (const Case& c : cases) {
    const auto l = warpLocalLayout(c.src, c.shape, 8);
    REQUIRE(l);
    CHECK(l->spt == std::vector<int>{1, 8});
    CHECK_FALSE(isReplicated(*l, c.shape));
    CHECK(numRegs(*l, c.shape) == numRegs(c.src, c.shape));
    for (int w = 0; w < c.warps; ++w) CHECK(warpElements(*l, c.shape, w) == warpElements(c.src, c.shape, w));
    // Consecutive lanes hold consecutive 8-element runs of a row (coalesced 16-byte accesses).
    const auto a = coordinates(*l, c.shape, 1, 0, 0), b = coordinates(*l, c.shape, 1, 1, 0);
    CHECK(b[0] == a[0]);
    CHECK(b[1] == a[1] + 8);
  }
  // wgmma's 16 rows per warp (16w..16w+15) as 8 runs of two rows, one pair per access.
  const auto l = warpLocalLayout(wgmmaLayout(8), {128, 128}, 8);
  CHECK(l->tpw == std::vector<int>{2, 16});
  CHECK(l->rpw == std::vector<int>{8, 1});
}

TEST_CASE("warp-local layout: none where a warp's elements are no block its lanes can cover") {
  // mma.sync's usual grid splits N over warps in 8-column strips: no 8-wide runs per warp.
  CHECK_FALSE(warpLocalLayout(mmaLayout({128, 128}, 8), {128, 128}, 8));
  // N not a multiple of the vector width.
  CHECK_FALSE(warpLocalLayout(wgmmaLayout(8), {128, 12}, 8));
  // Warps split N into blocks of 384 columns: 32 lanes of 8 cover 256, not a whole block.
  Layout wide = wgmmaLayout(4);
  wide.spt = {1, 96};
  wide.wpc = {2, 2};
  CHECK_FALSE(warpLocalLayout(wide, {128, 1536}, 8));
  // A slice (rank 1) has no rows to keep.
  CHECK_FALSE(warpLocalLayout(removeAxis(wgmmaLayout(8), 1), {128}, 8));
}
