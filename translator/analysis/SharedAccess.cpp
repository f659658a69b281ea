#include "analysis/SharedAccess.h"

#include "ir/InternalError.h"

#include <algorithm>
#include <climits>
#include <map>
#include <string>

namespace tilecc::ir {

void ByteSet::normalize() {
  if (!std::is_sorted(ranges.begin(), ranges.end())) std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<std::int64_t, std::int64_t>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second) merged.back().second = std::max(merged.back().second, r.second);
    else merged.push_back(r);
  }
  ranges = std::move(merged);
}

bool ByteSet::intersects(const ByteSet& o) const {
  std::size_t i = 0, j = 0;
  while (i < ranges.size() && j < o.ranges.size()) {
    if (ranges[i].second <= o.ranges[j].first) ++i;
    else if (o.ranges[j].second <= ranges[i].first) ++j;
    else return true;
  }
  return false;
}

void Footprint::bound() {
  lo = INT64_MAX;
  hi = INT64_MIN;
  for (const ByteSet& w : warps)
    if (!w.empty()) {
      lo = std::min(lo, w.ranges.front().first);
      hi = std::max(hi, w.ranges.back().second);
    }
  if (lo > hi) lo = hi = 0;
}

namespace {

class Footprints {
 public:
  Footprints(const Kernel& k, bool exact) : k_(k), warps_(k.numWarps), exact_(exact) {}

  SharedAccesses of(const Op& o) {
    SharedAccesses a;
    switch (o.kind) {
      case OpKind::SharedStore:
        a.before.push_back(o.operands[0]->type.isTile() ? tile(o.operands[0], o.operands[1], o.transposed, true, false)
                                                          : scalar(o.operands[1], true));
        break;
      case OpKind::SharedLoad:
        a.before.push_back(o.result()->type.isTile() ? tile(o.result(), o.operands[0], false, false, false)
                                                       : scalar(o.operands[0], false));
        break;
      case OpKind::AsyncCopy: a.before.push_back(tile(o.operands[0], o.operands[1], o.transposed, true, true)); break;
      case OpKind::Mma:
        if (exact_) {
          mma(o, a.before);
        } else {
          a.before.push_back(whole(o.operands[0], false, false));
          a.before.push_back(whole(o.operands[1], false, false));
        }
        break;
      case OpKind::Reduce:
      case OpKind::Scan:
        if (o.operands.size() == 2) {
          a.before.push_back(whole(o.operands[1], true, false));
          a.barrierInside = true;
          a.after.push_back(whole(o.operands[1], false, false));
        }
        break;
      case OpKind::TmaLoad:
        a.before.push_back(whole(o.operands[1], true, true));
        a.before.back().tma = true;
        break;
      case OpKind::TmaStore:
        a.before.push_back(whole(o.operands[1], false, true));
        a.before.back().bulkRead = true;
        break;
      case OpKind::Wgmma:
        if (o.operands[0]->type.isShared()) a.before.push_back(whole(o.operands[0], false, false));
        a.before.push_back(whole(o.operands[1], false, false));
        break;
      case OpKind::MBarrierInit: a.before.push_back(whole(o.operands[0], true, false)); break;
      case OpKind::MBarrierExpectTx:
      case OpKind::MBarrierArrive:
      case OpKind::MBarrierWait: a.before.push_back(whole(o.operands[0], false, false)); break;
      default: break;
    }
    if (exact_) {
      for (Footprint& f : a.before) f.bound();
      for (Footprint& f : a.after) f.bound();
    }
    return a;
  }

 private:
  const Kernel& k_;
  int warps_;
  bool exact_;

  // Where a buffer value may start: its allocation, or the slot(s) of a ring it views.
  std::vector<std::int64_t> bases(const Value* v) {
    const Op* d = v->def;
    if (d && d->kind == OpKind::SharedSlot) {
      const Value* ring = d->operands[0];
      const std::int64_t stage = ring->type.stageBytes();
      std::vector<std::int64_t> out;
      const Op* idx = d->operands[1]->def;
      for (std::int64_t b : bases(ring)) {
        if (idx && idx->kind == OpKind::Constant) {
          out.push_back(b + idx->intValue * stage);
        } else {
          for (int s = 0; s < ring->type.stages; ++s) out.push_back(b + s * stage);
        }
      }
      return out;
    }
    if (d && d->kind == OpKind::LocalAlloc) {
      if (d->offset < 0) internalError("shared-memory footprint of a buffer not yet allocated in " + k_.name);
      return {d->offset};
    }
    internalError("a shared buffer that is neither allocated nor a slot in " + k_.name);
  }

  Footprint empty(bool write, bool async) {
    Footprint f;
    f.warps.resize(static_cast<std::size_t>(warps_));
    f.write = write;
    f.async = async;
    return f;
  }

  Footprint whole(const Value* buf, bool write, bool async) {
    Footprint f = empty(write, async);
    const std::int64_t bytes = buf->def && buf->def->kind == OpKind::SharedSlot ? buf->type.stageBytes() : buf->type.sharedBytes();
    const std::vector<std::int64_t> starts = bases(buf);
    if (!exact_) {  // bounds only
      f.warps.clear();
      f.lo = *std::min_element(starts.begin(), starts.end());
      f.hi = *std::max_element(starts.begin(), starts.end()) + bytes;
      return f;
    }
    for (std::int64_t b : starts)
      for (auto& w : f.warps) w.add(b, b + bytes);
    for (auto& w : f.warps) w.normalize();
    return f;
  }

  Footprint scalar(const Value* buf, bool write) {
    if (!exact_) return whole(buf, write, false);
    Footprint f = empty(write, false);
    const int eb = buf->type.elem.bytes();
    for (std::int64_t b : bases(buf)) {
      if (write) f.warps[0].add(b, b + eb);  // one thread writes a scalar
      else
        for (auto& w : f.warps) w.add(b, b + eb);
    }
    for (auto& w : f.warps) w.normalize();
    return f;
  }

  // Byte offset of element `c` in a buffer of type t: rows of t's pitch, or (`flat`: an
  // unpadded buffer read in another shape, `shape`) the row-major index.
  static std::pair<std::int64_t, std::int64_t> at(const Type& t, const std::vector<int>& shape, bool flat, const int* c) {
    const int eb = t.elem.bytes();
    const std::size_t r = shape.size();
    if (flat) {
      std::int64_t i = 0;
      for (std::size_t a = 0; a < r; ++a) i = i * shape[a] + c[a];
      return {i * eb, i * eb + eb};
    }
    std::int64_t row = 0;
    for (std::size_t a = 0; a + 1 < r; ++a) row = row * shape[a] + c[a];
    const std::int64_t start = sharedOffset(t.smem, t.rows(), row, static_cast<std::int64_t>(c[r - 1]) * eb);
    return {start, start + eb};
  }

  // The elements of tile v (held as its layout says) at their places in buffer `buf`.
  Footprint tile(const Value* v, const Value* buf, bool transposed, bool write, bool async) {
    if (!exact_) return whole(buf, write, async);
    Footprint f = empty(write, async);
    const std::vector<ByteSet>& rel = relative(v, buf, transposed, write);
    std::vector<std::int64_t> starts = bases(buf);
    std::sort(starts.begin(), starts.end());  // slots in order: the ranges stay sorted
    for (std::int64_t b : starts)
      for (std::size_t w = 0; w < rel.size(); ++w)
        for (const auto& [lo, hi] : rel[w].ranges) f.warps[w].add(b + lo, b + hi);
    for (auto& w : f.warps) w.normalize();
    return f;
  }

  // The per-warp bytes of a tile access relative to the buffer's start. The same access pattern
  // recurs (prologue copies, variants, instantiations): computed once per translation.
  const std::vector<ByteSet>& relative(const Value* v, const Value* buf, bool transposed, bool write) {
    const Layout& l = k_.layoutOf(v);
    const std::vector<int>& shape = v->type.shape;
    std::string key = describe(l) + "|" + toString(v->type) + "|" + toString(buf->type) + "|" + std::to_string(warps_) +
                      (transposed ? "|t" : "|") + (write ? "w" : "r");
    static std::map<std::string, std::vector<ByteSet>> cache;
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    std::vector<ByteSet> rel(static_cast<std::size_t>(warps_));
    std::vector<int> bufShape = shape;
    if (transposed) std::swap(bufShape[0], bufShape[1]);
    const bool flat = bufShape != buf->type.shape;
    CoordinateMap map(l, shape);
    std::vector<int> c(shape.size());
    for (int w = 0; w < warps_; ++w)
      for (int lane = 0; lane < 32; ++lane) {
        if (write && !isOwner(l, shape, w, lane)) continue;  // copies are written by their owner only
        map.thread(w, lane);
        for (int r = 0; r < map.registers(); ++r) {
          map.at(r, c.data());
          if (transposed) std::swap(c[0], c[1]);
          const auto [lo, hi] = at(buf->type, bufShape, flat, c.data());
          rel[static_cast<std::size_t>(w)].add(lo, hi);
        }
      }
    for (auto& w : rel) w.normalize();
    return cache.emplace(std::move(key), std::move(rel)).first->second;
  }

  // mma reads, per warp, the rows of A and the columns of B of the accumulator elements it holds.
  void mma(const Op& o, std::vector<Footprint>& out) {
    const Value* a = o.operands[0];
    const Value* b = o.operands[1];
    const Value* acc = o.result();
    const std::string key = describe(k_.layoutOf(acc)) + "|" + toString(acc->type) + "|" + toString(a->type) + "|" +
                            toString(b->type) + "|" + std::to_string(warps_) + (o.transposed ? "|t" : "|") + (o.transposedA ? "a" : "");
    static std::map<std::string, std::pair<std::vector<ByteSet>, std::vector<ByteSet>>> cache;
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, mmaRelative(o)).first;
    for (int operand = 0; operand < 2; ++operand) {
      const auto& rel = operand == 0 ? it->second.first : it->second.second;
      Footprint f = empty(false, false);
      std::vector<std::int64_t> starts = bases(o.operands[static_cast<std::size_t>(operand)]);
      std::sort(starts.begin(), starts.end());
      for (std::int64_t base : starts)
        for (std::size_t w = 0; w < rel.size(); ++w)
          for (const auto& [lo, hi] : rel[w].ranges) f.warps[w].add(base + lo, base + hi);
      for (auto& w : f.warps) w.normalize();
      out.push_back(std::move(f));
    }
  }

  // A's and B's per-warp bytes relative to their buffers' starts.
  std::pair<std::vector<ByteSet>, std::vector<ByteSet>> mmaRelative(const Op& o) {
    const Value* a = o.operands[0];
    const Value* b = o.operands[1];
    const Value* acc = o.result();
    const Layout& l = k_.layoutOf(acc);
    const int K = o.transposedA ? a->type.shape[0] : a->type.shape[1];
    const int eb = a->type.elem.bytes();
    std::vector<ByteSet> fa(static_cast<std::size_t>(warps_)), fb(static_cast<std::size_t>(warps_));
    CoordinateMap map(l, acc->type.shape);
    int c[2];
    const int M = acc->type.shape[0], N = acc->type.shape[1];
    for (int w = 0; w < warps_; ++w) {
      std::vector<char> holdsRow(static_cast<std::size_t>(M)), holdsCol(static_cast<std::size_t>(N));
      for (int lane = 0; lane < 32; ++lane) {
        map.thread(w, lane);
        for (int r = 0; r < map.registers(); ++r) {
          map.at(r, c);
          holdsRow[static_cast<std::size_t>(c[0])] = 1;
          holdsCol[static_cast<std::size_t>(c[1])] = 1;
        }
      }
      ByteSet& sa = fa[static_cast<std::size_t>(w)];
      ByteSet& sb = fb[static_cast<std::size_t>(w)];
      const std::int64_t pa = a->type.smem.pitch, pb = b->type.smem.pitch;
      if (o.transposedA) {  // A as [K][M]: column m of every row
        for (int kk = 0; kk < K; ++kk)
          for (int row = 0; row < M; ++row)
            if (holdsRow[static_cast<std::size_t>(row)]) sa.add(kk * pa + std::int64_t{row} * eb, kk * pa + std::int64_t{row} * eb + eb);
      } else {  // A as [M][K]: whole rows m
        for (int row = 0; row < M; ++row)
          if (holdsRow[static_cast<std::size_t>(row)]) sa.add(row * pa, row * pa + K * eb);
      }
      if (o.transposed) {  // B as [N][K]: whole rows n
        for (int n = 0; n < N; ++n)
          if (holdsCol[static_cast<std::size_t>(n)]) sb.add(n * pb, n * pb + K * eb);
      } else {  // B as [K][N]: column n of every row
        for (int kk = 0; kk < K; ++kk)
          for (int n = 0; n < N; ++n)
            if (holdsCol[static_cast<std::size_t>(n)]) sb.add(kk * pb + std::int64_t{n} * eb, kk * pb + std::int64_t{n} * eb + eb);
      }
      sa.normalize();
      sb.normalize();
    }
    return {std::move(fa), std::move(fb)};
  }
};

}  // namespace

SharedAccesses sharedAccessesOf(const Kernel& k, const Op& op, bool exact) { return Footprints(k, exact).of(op); }

Access sharedAccess(const Kernel& k, const Value* v, const Type& buf, bool transposed) {
  const int axis = transposed ? 0 : v->type.rank() - 1;
  const AxisGeom g = axisGeom(k.layoutOf(v), axis, v->type.shape[static_cast<std::size_t>(axis)]);
  const int eb = v->type.elem.bytes();
  int vec = 1;
  while (vec * 2 <= g.spt && vec * 2 * eb <= 16 && (buf.rows() == 1 || buf.smem.pitch % (vec * 2 * eb) == 0)) vec *= 2;
  return Access{vec, axis, {}};
}

}  // namespace tilecc::ir
