#include "ir/TaskMapping.h"

#include <algorithm>
#include <climits>

namespace tilecc::ir {

namespace {

std::string args(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

bool trivial(const std::vector<int>& v) {
  return std::all_of(v.begin(), v.end(), [](int x) { return x == 1; });
}

// One factor of a dimension's task index: `extent` values, from a repeat (in a thread) or from
// threads `weight` apart in the thread numbering.
struct Digit {
  enum Kind { Repeat, Warp, Lane } kind;
  int extent;
  int weight;  // thread-number weight (lanes, warps: in their own unit)
};

}  // namespace

int TaskMapping::threads() const {
  int t = 1;
  for (const Part& p : parts)
    if (p.spatial)
      for (int e : p.extents) t *= e;
  return t;
}

std::vector<int> TaskMapping::taskExtents() const {
  std::vector<int> e(static_cast<std::size_t>(rank()), 1);
  for (const Part& p : parts)
    for (std::size_t d = 0; d < e.size() && d < p.extents.size(); ++d) e[d] *= p.extents[d];
  return e;
}

std::string describe(const TaskMapping& m) {
  std::vector<std::string> parts;
  for (const auto& p : m.parts)
    if (!trivial(p.extents)) parts.push_back(std::string(p.spatial ? "spatial<" : "repeat<") + args(p.extents) + ">");
  if (parts.empty()) return "repeat<" + args(std::vector<int>(static_cast<std::size_t>(m.rank()), 1)) + ">";
  if (parts.size() == 1) return parts[0];
  std::string s = "compose<";
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s + ">";
}

std::optional<Layout> toLayout(const TaskMapping& m, int numWarps, std::string* why) {
  const int r = m.rank();
  if (m.threads() != numWarps * 32) {
    *why = "the mapping has " + std::to_string(m.threads()) + " threads; the kernel has num_warps = " + std::to_string(numWarps) +
           ", " + std::to_string(numWarps * 32) + " threads";
    return std::nullopt;
  }
  // Each dimension's digits, most significant first (outer parts first).
  std::vector<std::vector<Digit>> digits(static_cast<std::size_t>(r));
  int inner = m.threads();  // threads of the parts inside the current one, times its own
  for (const auto& p : m.parts) {
    int partThreads = 1;
    if (p.spatial)
      for (int e : p.extents) partThreads *= e;
    inner /= partThreads;
    int w = 1;  // row-major weight inside the part
    for (int d = r - 1; d >= 0; --d) {
      const int e = p.extents[static_cast<std::size_t>(d)];
      auto& out = digits[static_cast<std::size_t>(d)];
      if (e > 1 && !p.spatial) out.insert(out.begin() + static_cast<long>(out.size()), Digit{Digit::Repeat, e, 0});
      if (e > 1 && p.spatial) {
        const long weight = static_cast<long>(inner) * w;
        if (weight >= 32) {
          out.push_back(Digit{Digit::Warp, e, static_cast<int>(weight / 32)});
        } else if (weight * e <= 32) {
          out.push_back(Digit{Digit::Lane, e, static_cast<int>(weight)});
        } else {  // straddles lanes and warps: the high part is a warp digit
          const int lanes = static_cast<int>(32 / weight);
          out.push_back(Digit{Digit::Warp, e / lanes, 1});
          out.push_back(Digit{Digit::Lane, lanes, static_cast<int>(weight)});
        }
      }
      if (p.spatial) w *= e;
    }
  }
  Layout l;
  l.spt.assign(static_cast<std::size_t>(r), 1);
  l.tpw.assign(static_cast<std::size_t>(r), 1);
  l.wpc.assign(static_cast<std::size_t>(r), 1);
  std::vector<long> key(static_cast<std::size_t>(r), LONG_MAX);
  for (int d = 0; d < r; ++d) {
    // repeats (outer: a larger tile repeats a blocked layout), warps, repeats within a warp
    // (rpw), lanes, repeats (spt)
    int phase = 0;
    for (const Digit& g : digits[static_cast<std::size_t>(d)]) {
      const int want = g.kind == Digit::Warp ? 1 : g.kind == Digit::Lane ? 3 : (phase == 0 ? 0 : phase <= 2 ? 2 : 4);
      if (want < phase) {
        *why = "along dimension " + std::to_string(d) + ", " +
               (g.kind == Digit::Repeat ? std::string("a repeat lies between lanes")
                                        : std::string(g.kind == Digit::Warp ? "warps" : "lanes") + " come inside " +
                                              (phase == 4 ? "a thread's repeat" : phase == 2 ? "a warp's repeat" : "lanes")) +
               "; the translator's layouts nest, per dimension, repeats of the whole, warps, repeats within a "
               "warp, lanes, then each thread's elements";
        return std::nullopt;
      }
      phase = want;
      auto D = static_cast<std::size_t>(d);
      if (g.kind == Digit::Warp) l.wpc[D] *= g.extent;
      if (g.kind == Digit::Lane) {
        l.tpw[D] *= g.extent;
        key[D] = std::min<long>(key[D], g.weight);
      }
      if (g.kind == Digit::Warp) key[D] = std::min<long>(key[D], 32L * g.weight);
      if (g.kind == Digit::Repeat && phase == 4) l.spt[D] *= g.extent;
      if (g.kind == Digit::Repeat && phase == 2) {
        if (l.rpw.empty()) l.rpw.assign(static_cast<std::size_t>(r), 1);
        l.rpw[D] *= g.extent;
      }
    }
  }
  // Fastest dimension first: the one whose lanes are nearest in the thread numbering.
  for (int d = 0; d < r; ++d) l.order.push_back(d);
  std::stable_sort(l.order.begin(), l.order.end(), [&](int a, int b) {
    const long ka = key[static_cast<std::size_t>(a)], kb = key[static_cast<std::size_t>(b)];
    return ka != kb ? ka < kb : a > b;
  });
  for (int d = 0; d < r; ++d) l.dims.push_back(d);
  return l;
}

std::string describeAsTaskMapping(const Layout& l) {
  // Over the tile's axes (a transposed or sliced tile reads its parent's dimensions through dims).
  auto pick = [&](const std::vector<int>& v) {
    std::vector<int> out;
    for (int p : l.dims) out.push_back(v[static_cast<std::size_t>(p)]);
    return out;
  };
  TaskMapping m;
  m.parts.push_back({true, pick(l.wpc)});
  if (!l.rpw.empty()) m.parts.push_back({false, pick(l.rpw)});
  m.parts.push_back({true, pick(l.tpw)});
  m.parts.push_back({false, pick(l.spt)});
  std::string s = describe(m);
  int copies = 1;  // threads along parent dimensions the tile does not have
  for (int p = 0; p < l.parentRank(); ++p)
    if (std::find(l.dims.begin(), l.dims.end(), p) == l.dims.end())
      copies *= l.tpw[static_cast<std::size_t>(p)] * l.wpc[static_cast<std::size_t>(p)];
  if (copies > 1) s += ", each element held by " + std::to_string(copies) + " threads";
  // Lanes numbered along another dimension than the last: the index arithmetic shows it.
  std::vector<int> rowMajor;
  for (int p = l.parentRank() - 1; p >= 0; --p) rowMajor.push_back(p);
  if (l.order != rowMajor && l.parentRank() > 1) s += " (lanes fastest along dim " + std::to_string(l.order[0]) + ")";
  return s;
}

}  // namespace tilecc::ir
