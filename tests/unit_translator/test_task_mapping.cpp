// Task mappings (with_layout's notation) to blocked layouts and back: a mapping and the layout
// made from it put the same elements on each thread and on each warp.
#include <doctest/doctest.h>

#include "ir/TaskMapping.h"

#include <map>
#include <random>

using namespace tilecc::ir;

namespace {

// Thread of each element (row-major over the task grid) under Hidet's semantics.
std::vector<int> threadsOf(const TaskMapping& m) {
  const std::vector<int> ext = m.taskExtents();
  const int r = m.rank();
  int n = 1;
  for (int e : ext) n *= e;
  std::vector<int> out(static_cast<std::size_t>(n));
  for (int flat = 0; flat < n; ++flat) {
    std::vector<int> c(static_cast<std::size_t>(r));
    for (int d = r - 1, x = flat; d >= 0; --d) {
      c[static_cast<std::size_t>(d)] = x % ext[static_cast<std::size_t>(d)];
      x /= ext[static_cast<std::size_t>(d)];
    }
    // Digits per part, innermost part first.
    int thread = 0, threadScale = 1;
    for (auto p = m.parts.rbegin(); p != m.parts.rend(); ++p) {
      int partThread = 0, partThreads = 1;
      for (int d = 0; d < r; ++d) {
        const int e = p->extents[static_cast<std::size_t>(d)];
        const int digit = c[static_cast<std::size_t>(d)] % e;
        c[static_cast<std::size_t>(d)] /= e;
        if (p->spatial) {
          partThread = partThread * e + digit;
          partThreads *= e;
        }
      }
      thread += partThread * threadScale;
      threadScale *= partThreads;
    }
    out[static_cast<std::size_t>(flat)] = thread;
  }
  return out;
}

// Thread (warp * 32 + lane) of each element under the layout.
std::vector<int> threadsOf(const Layout& l, const std::vector<int>& shape, int numWarps) {
  int n = 1;
  for (int e : shape) n *= e;
  std::vector<int> out(static_cast<std::size_t>(n), -1);
  CoordinateMap cm(l, shape);
  std::vector<int> c(shape.size());
  for (int w = 0; w < numWarps; ++w)
    for (int lane = 0; lane < 32; ++lane) {
      cm.thread(w, lane);
      for (int reg = 0; reg < cm.registers(); ++reg) {
        cm.at(reg, c.data());
        int flat = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + c[d];
        out[static_cast<std::size_t>(flat)] = w * 32 + lane;
      }
    }
  return out;
}

// The same partition into threads and into warps (numbering aside).
bool samePartition(const std::vector<int>& a, const std::vector<int>& b) {
  std::map<int, int> ab, ba, wab, wba;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (b[i] < 0) return false;
    if (ab.emplace(a[i], b[i]).first->second != b[i] || ba.emplace(b[i], a[i]).first->second != a[i]) return false;
    if (wab.emplace(a[i] / 32, b[i] / 32).first->second != b[i] / 32) return false;
    if (wba.emplace(b[i] / 32, a[i] / 32).first->second != a[i] / 32) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("task mapping: the documented example") {
  TaskMapping m{{{true, {4, 1}}, {true, {8, 4}}, {false, {2, 16}}}};
  std::string why;
  auto l = toLayout(m, 4, &why);
  REQUIRE(l);
  CHECK(l->spt == std::vector<int>{2, 16});
  CHECK(l->tpw == std::vector<int>{8, 4});
  CHECK(l->wpc == std::vector<int>{4, 1});
  CHECK(describe(m) == "compose<spatial<4, 1>, spatial<8, 4>, repeat<2, 16>>");
  CHECK(describeAsTaskMapping(*l) == "compose<spatial<4, 1>, spatial<8, 4>, repeat<2, 16>>");
  CHECK(samePartition(threadsOf(m), threadsOf(*l, {64, 64}, 4)));
}

TEST_CASE("task mapping: thread counts and nesting that blocked layouts cannot hold") {
  std::string why;
  CHECK_FALSE(toLayout(TaskMapping{{{true, {4}}, {true, {32}}}}, 2, &why));
  CHECK(why.find("128 threads") != std::string::npos);
  CHECK_FALSE(toLayout(TaskMapping{{{true, {2}}, {true, {4}}, {false, {2}}, {true, {8}}}}, 2, &why));
  CHECK(why.find("dimension 0") != std::string::npos);
}

TEST_CASE("task mapping: a repeat between warps and lanes is several runs per warp (wgmma's rows)") {
  std::string why;
  // Each warp 16 consecutive rows as two runs of 8, 4 lanes along the columns: wgmma's accumulator.
  const auto l = toLayout(TaskMapping{{{true, {4, 1}}, {false, {2, 1}}, {true, {8, 4}}, {false, {1, 2}}}}, 4, &why);
  REQUIRE(l);
  CHECK(*l == wgmmaLayout(4));
  CHECK(describeAsTaskMapping(*l) == "compose<spatial<4, 1>, repeat<2, 1>, spatial<8, 4>, repeat<1, 2>>");
}

TEST_CASE("task mapping: random mappings that convert hold the same partition") {
  std::mt19937 gen(12345);
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int r = 1 + static_cast<int>(gen() % 2);
    const int numWarps = 1 << (gen() % 4);
    int threadsLeft = numWarps * 32;
    TaskMapping m;
    const int parts = 1 + static_cast<int>(gen() % 4);
    for (int p = 0; p < parts; ++p) {
      TaskMapping::Part part;
      part.spatial = gen() % 3 != 0;
      for (int d = 0; d < r; ++d) part.extents.push_back(1 << (gen() % 3));
      if (part.spatial) {
        int t = 1;
        for (int& e : part.extents) {
          while (t * e > threadsLeft) e /= 2;
          t *= e;
        }
        threadsLeft /= t;
      }
      m.parts.push_back(part);
    }
    if (threadsLeft > 1) m.parts.push_back({true, [&] {
                                              std::vector<int> e(static_cast<std::size_t>(r), 1);
                                              e.back() = threadsLeft;
                                              return e;
                                            }()});
    std::string why;
    auto l = toLayout(m, numWarps, &why);
    if (!l) continue;
    ++accepted;
    INFO(describe(m) << " on " << numWarps << " warps");
    CHECK(samePartition(threadsOf(m), threadsOf(*l, m.taskExtents(), numWarps)));
  }
  CHECK(accepted > 500);
}
