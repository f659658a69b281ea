#include "ir/Layout.h"

#include <algorithm>
#include <tuple>

namespace tilecc::ir {

namespace {

std::string list(const std::vector<int>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

std::string describe(const Layout& l) {
  std::string s = "blocked{spt=" + list(l.spt) + " tpw=" + list(l.tpw) + (l.rpw.empty() ? "" : " rpw=" + list(l.rpw)) +
                  " wpc=" + list(l.wpc) + " order=" + list(l.order) + "}";
  std::vector<int> all(l.spt.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  if (l.dims != all) s += " axes=" + list(l.dims);
  return s;
}

Layout removeAxis(const Layout& l, int axis) {
  Layout r = l;
  r.dims.erase(r.dims.begin() + axis);
  return r;
}

Layout transposed(const Layout& l) {
  Layout r = l;
  std::swap(r.dims[0], r.dims[1]);
  return r;
}

Layout defaultLayout(const std::vector<int>& shape, int numWarps, int vec, int fastest) {
  const int r = static_cast<int>(shape.size());
  if (fastest < 0) fastest = r - 1;
  Layout l;
  l.spt.assign(r, 1);
  l.tpw.assign(r, 1);
  l.wpc.assign(r, 1);
  l.order.push_back(fastest);
  for (int d = r - 1; d >= 0; --d)
    if (d != fastest) l.order.push_back(d);
  for (int d = 0; d < r; ++d) l.dims.push_back(d);
  l.spt[static_cast<std::size_t>(fastest)] = std::max(1, std::min(vec, shape[static_cast<std::size_t>(fastest)]));
  int lanes = 32;
  for (int d : l.order) {
    const int t = std::min(lanes, std::max(1, shape[d] / l.spt[d]));
    l.tpw[d] = t;
    lanes /= t;
  }
  l.tpw[l.order.front()] *= lanes;  // a small tile: lanes replicate along the fastest axis
  int warps = numWarps;
  for (auto it = l.order.rbegin(); it != l.order.rend(); ++it) {
    const int d = *it;
    const int w = std::min(warps, std::max(1, shape[d] / (l.spt[d] * l.tpw[d])));
    l.wpc[d] = w;
    warps /= w;
  }
  l.wpc[l.order.back()] *= warps;  // spare warps replicate along the slowest axis
  return l;
}

std::optional<Layout> warpLocalLayout(const Layout& src, const std::vector<int>& shape, int vec) {
  if (shape.size() != 2 || src.dims != std::vector<int>{0, 1} || src.order != std::vector<int>{1, 0} || vec < 1)
    return std::nullopt;
  Layout l;
  l.spt = {1, vec};
  l.tpw = {1, 1};
  l.wpc = src.wpc;
  l.order = {1, 0};
  l.dims = {0, 1};
  std::vector<int> rpw{1, 1};
  // Elements one warp holds along p in one pass of src's warps: its block where warps split
  // the axis, the whole extent where they do not.
  auto block = [&](int p) { return src.spt[p] * src.tpw[p] * src.runsPerWarp(p); };
  const int cols = src.wpc[1] == 1 ? shape[1] : block(1);
  l.tpw[1] = std::min(32, cols / vec);
  if (cols % vec || 32 % l.tpw[1]) return std::nullopt;
  if (src.wpc[1] > 1) {
    if (cols % (vec * l.tpw[1])) return std::nullopt;
    rpw[1] = cols / (vec * l.tpw[1]);
  }
  l.tpw[0] = 32 / l.tpw[1];
  if (src.wpc[0] > 1) {
    if (block(0) % l.tpw[0]) return std::nullopt;
    rpw[0] = block(0) / l.tpw[0];
  }
  // Whole passes of both, so that repetitions (and no replication) line up.
  for (int p = 0; p < 2; ++p)
    if (shape[p] % (block(p) * src.wpc[p]) || shape[p] % (l.spt[p] * l.tpw[p] * rpw[p] * l.wpc[p])) return std::nullopt;
  if (rpw != std::vector<int>{1, 1}) l.rpw = rpw;
  return l;
}

int conversionPad(const std::vector<int>& shape, int bytes, int runBytes) {
  if (shape.size() < 2 || shape.back() * bytes < 128) return 0;
  return std::max({1, 4 / bytes, std::min(runBytes, 16) / bytes});
}

Layout mmaLayout(const std::vector<int>& shape, int numWarps, bool chained) {
  // The warp grid with the squarest warp tile (least shared-memory traffic per mma) among
  // those where each warp has two 8-row groups and 8 columns; a tile too small for all warps
  // replicates along N.
  int wm = 1, wn = numWarps, best = -1;
  if (chained && 16 * numWarps <= shape[0]) {
    wm = numWarps;
    wn = 1;
    best = 0;
  }
  for (int m = 1; best != 0 && m <= numWarps; m *= 2) {
    const int n = numWarps / m;
    if (16 * m > shape[0] || (8 * n > shape[1] && m > 1)) continue;
    const int cost = shape[0] / m + std::max(8, shape[1] / n);
    if (best < 0 || cost < best) {
      best = cost;
      wm = m;
      wn = n;
    }
  }
  Layout l;
  l.spt = {1, 2};
  l.tpw = {8, 4};
  l.wpc = {wm, wn};
  l.order = {1, 0};
  l.dims = {0, 1};
  return l;
}

bool isMmaLayout(const Layout& l) {
  return l.spt == std::vector<int>{1, 2} && l.tpw == std::vector<int>{8, 4} && l.order == std::vector<int>{1, 0} &&
         l.dims == std::vector<int>{0, 1} && l.rpw.empty();
}

Layout wgmmaLayout(int numWarps) {
  Layout l;
  l.spt = {1, 2};
  l.tpw = {8, 4};
  l.rpw = {2, 1};
  l.wpc = {numWarps, 1};
  l.order = {1, 0};
  l.dims = {0, 1};
  return l;
}

std::string wgmmaMisfit(const Type& a, const Type& b, const Type& result, int numWarps) {
  if (numWarps % 4 != 0) return "num_warps = " + std::to_string(numWarps) + " is no whole warp group";
  if (!(a.elem.kind == Scalar::F16 || a.elem.kind == Scalar::BF16)) return "operands are " + toString(a.elem) + ", not f16 or bf16";
  if (result.elem.kind != Scalar::F32) return "the accumulator is " + toString(result.elem) + ", not f32";
  const int M = a.shape[0], K = a.shape[1], N = b.shape[1];
  if (M % 64 != 0) return "M = " + std::to_string(M) + " is not a multiple of 64 rows (a warp group's block)";
  if (M % (16 * numWarps) != 0)
    return "M = " + std::to_string(M) + " rows are " + std::to_string(M / 64) + " block(s) of 64 for " + std::to_string(numWarps / 4) +
           " warp groups (num_warps = " + std::to_string(numWarps) + "), and warp groups split M only: M a multiple of " +
           std::to_string(16 * numWarps) + ", or num_warps = 4, would take wgmma";
  if (N % 16 != 0 || N > 256) return "N = " + std::to_string(N) + " is not a multiple of 16 up to 256";
  if (K % 16 != 0) return "K = " + std::to_string(K) + " is not a multiple of 16";
  // One wgmma writes its whole accumulator at once: with the descriptors and addresses it must
  // fit the registers a thread has (ptxas stops otherwise; mma.sync can spill instead).
  const int accRegs = M * N / (32 * numWarps);
  const int cap = std::min(255, 65536 / (32 * numWarps));
  if (accRegs + 32 > cap)
    return "the accumulator takes " + std::to_string(accRegs) + " of the " + std::to_string(cap) + " registers a thread has with " +
           std::to_string(numWarps) + " warps";
  return "";
}

bool isWgmmaLayout(const Layout& l) {
  return l.spt == std::vector<int>{1, 2} && l.tpw == std::vector<int>{8, 4} && l.rpw == std::vector<int>{2, 1} &&
         l.wpc.size() == 2 && l.wpc[0] % 4 == 0 && l.wpc[1] == 1 && l.order == std::vector<int>{1, 0} &&
         l.dims == std::vector<int>{0, 1};
}

AxisGeom axisGeom(const Layout& l, int axis, int extent) {
  AxisGeom g;
  g.parentDim = l.dims[axis];
  g.extent = extent;
  const int p = g.parentDim;
  g.spt = std::min(l.spt[p], extent);
  g.threads = l.tpw[p] * l.wpc[p];
  g.run = l.tpw[p] * l.spt[p];
  g.coverage = l.spt[p] * l.runsPerWarp(p) * g.threads;
  // A replicated axis holds only the runs that fit in its extent (one when a run covers it).
  g.rpw = extent >= g.coverage ? l.runsPerWarp(p) : std::max(1, std::min(l.runsPerWarp(p), extent / g.run));
  g.regs = std::max(1, extent / g.coverage) * g.spt * g.rpw;
  g.replicated = g.coverage > extent;
  return g;
}

int numRegs(const Layout& l, const std::vector<int>& shape) {
  int n = 1;
  for (int a = 0; a < static_cast<int>(shape.size()); ++a) n *= axisGeom(l, a, shape[a]).regs;
  return n;
}


bool Layout::operator<(const Layout& o) const {
  return std::tie(spt, tpw, wpc, order, dims, rpw) < std::tie(o.spt, o.tpw, o.wpc, o.order, o.dims, o.rpw);
}

ReduceGeom reduceGeom(const Layout& l, const std::vector<int>& shape, int axis) {
  const AxisGeom ax = axisGeom(l, axis, shape[static_cast<std::size_t>(axis)]);
  const int p = ax.parentDim;
  const auto P = static_cast<std::size_t>(p);
  const int distinct = std::max(1, ax.extent / ax.spt);
  ReduceGeom g;
  g.spt = ax.spt;
  g.chunks = std::max(1, ax.regs / ax.spt);
  g.coverage = ax.coverage;
  g.lanes = std::min(l.tpw[P], distinct);
  g.warps = std::min(l.wpc[P], std::max(1, distinct / (l.tpw[P] * ax.rpw)));
  for (int q : l.order) {
    if (q == p) break;
    g.laneStride *= l.tpw[static_cast<std::size_t>(q)];
    g.warpStride *= l.wpc[static_cast<std::size_t>(q)];
  }
  return g;
}

bool isReplicated(const Layout& l, const std::vector<int>& shape) {
  for (int p = 0; p < l.parentRank(); ++p) {
    const auto P = static_cast<std::size_t>(p);
    if (l.tpw[P] * l.wpc[P] == 1) continue;
    const auto it = std::find(l.dims.begin(), l.dims.end(), p);
    if (it == l.dims.end()) return true;
    const auto a = static_cast<std::size_t>(it - l.dims.begin());
    if (axisGeom(l, static_cast<int>(a), shape[a]).replicated) return true;
  }
  return false;
}

int threadPosition(const Layout& l, int p, int warp, int lane) {
  const auto P = static_cast<std::size_t>(p);
  if (l.tpw[P] * l.wpc[P] == 1) return 0;
  int lstride = 1, wstride = 1;
  for (int q : l.order) {
    if (q == p) break;
    lstride *= l.tpw[static_cast<std::size_t>(q)];
    wstride *= l.wpc[static_cast<std::size_t>(q)];
  }
  return (warp / wstride) % l.wpc[P] * l.tpw[P] + (lane / lstride) % l.tpw[P];
}

int threadBase(const Layout& l, int p, int warp, int lane) {
  const auto P = static_cast<std::size_t>(p);
  const int t = threadPosition(l, p, warp, lane);
  const int rpw = l.runsPerWarp(p);
  if (rpw == 1) return t * l.spt[P];
  return (t / l.tpw[P] * l.tpw[P] * rpw + t % l.tpw[P]) * l.spt[P];
}

int registerOffset(const AxisGeom& x, int d) {
  const int perWarp = x.spt * x.rpw;  // a thread's registers along the axis in one pass
  return d / perWarp * x.coverage + d / x.spt % x.rpw * x.run + d % x.spt;
}

namespace {

// The first coordinate (warp, lane) holds along axis x; on a replicated axis, modulo its extent.
int firstCoordinate(const Layout& l, const AxisGeom& x, int warp, int lane) {
  const int base = threadBase(l, x.parentDim, warp, lane);
  if (!x.replicated) return base;
  return l.spt[static_cast<std::size_t>(x.parentDim)] >= x.extent ? 0 : base & (x.extent - 1);
}

}  // namespace

std::vector<int> coordinates(const Layout& l, const std::vector<int>& shape, int warp, int lane, int reg) {
  const int r = static_cast<int>(shape.size());
  std::vector<AxisGeom> ax;
  for (int a = 0; a < r; ++a) ax.push_back(axisGeom(l, a, shape[static_cast<std::size_t>(a)]));
  std::vector<int> c(static_cast<std::size_t>(r));
  int stride = 1;
  for (int a = r - 1; a >= 0; --a) {
    const AxisGeom& x = ax[static_cast<std::size_t>(a)];
    const int d = reg / stride % x.regs;
    stride *= x.regs;
    c[static_cast<std::size_t>(a)] = firstCoordinate(l, x, warp, lane) + registerOffset(x, d);
  }
  return c;
}

CoordinateMap::CoordinateMap(const Layout& l, const std::vector<int>& shape) : l_(l) {
  const int r = static_cast<int>(shape.size());
  for (int a = 0; a < r; ++a) ax_.push_back(axisGeom(l, a, shape[static_cast<std::size_t>(a)]));
  base_.assign(static_cast<std::size_t>(r), 0);
  stride_.assign(static_cast<std::size_t>(r), 1);
  for (int a = r - 1; a >= 0; --a) {
    stride_[static_cast<std::size_t>(a)] = regs_;
    regs_ *= ax_[static_cast<std::size_t>(a)].regs;
  }
}

void CoordinateMap::thread(int warp, int lane) {
  for (std::size_t a = 0; a < ax_.size(); ++a) {
    base_[a] = firstCoordinate(l_, ax_[a], warp, lane);
  }
}

void CoordinateMap::at(int reg, int* c) const {
  for (std::size_t a = 0; a < ax_.size(); ++a) {
    const AxisGeom& x = ax_[a];
    const int d = reg / stride_[a] % x.regs;
    c[a] = base_[a] + registerOffset(x, d);
  }
}

bool isOwner(const Layout& l, const std::vector<int>& shape, int warp, int lane, int skipDim) {
  for (int p = 0; p < l.parentRank(); ++p) {
    const auto P = static_cast<std::size_t>(p);
    if (p == skipDim || l.tpw[P] * l.wpc[P] == 1) continue;
    const auto it = std::find(l.dims.begin(), l.dims.end(), p);
    const int t = threadPosition(l, p, warp, lane);
    if (it == l.dims.end()) {
      if (t != 0) return false;
    } else {
      const AxisGeom x = axisGeom(l, static_cast<int>(it - l.dims.begin()), shape[static_cast<std::size_t>(it - l.dims.begin())]);
      if (x.replicated && threadBase(l, p, warp, lane) >= x.extent) return false;
    }
  }
  return true;
}

}  // namespace tilecc::ir
