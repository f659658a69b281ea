// The accumulator layouts of dot: warp grids, chained dots, small tiles.
#include <doctest/doctest.h>

#include "ir/Layout.h"

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
