#include "analysis/SharedAccess.h"

#include "ir/InternalError.h"

#include <algorithm>
#include <set>

namespace tilecc::ir {

void ByteSet::normalize() {
  std::sort(ranges.begin(), ranges.end());
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

namespace {

class Footprints {
 public:
  explicit Footprints(const Kernel& k) : k_(k), warps_(k.numWarps) {}

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
      case OpKind::AsyncCopy: a.before.push_back(tile(o.operands[0], o.operands[1], false, true, true)); break;
      case OpKind::Mma: mma(o, a.before); break;
      case OpKind::Reduce:
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
      case OpKind::TmaStore: a.before.push_back(whole(o.operands[1], false, false)); break;
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
    return a;
  }

 private:
  const Kernel& k_;
  int warps_;

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
    for (std::int64_t b : bases(buf))
      for (auto& w : f.warps) w.add(b, b + bytes);
    for (auto& w : f.warps) w.normalize();
    return f;
  }

  Footprint scalar(const Value* buf, bool write) {
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

  // Byte offset of element `c` (coordinates in `shape`) in a buffer of type t: rows of t's
  // pitch when the shapes agree, else the flat row-major index (an unpadded buffer read in
  // another shape). Swizzled rows count whole.
  static std::pair<std::int64_t, std::int64_t> at(const Type& t, const std::vector<int>& shape, const std::vector<int>& c) {
    const int eb = t.elem.bytes();
    if (shape != t.shape) {
      std::int64_t flat = 0;
      for (std::size_t a = 0; a < c.size(); ++a) flat = flat * shape[a] + c[a];
      return {flat * eb, flat * eb + eb};
    }
    std::int64_t row = 0;
    for (std::size_t a = 0; a + 1 < c.size(); ++a) row = row * shape[a] + c[a];
    const std::int64_t start = row * t.smem.pitch;
    if (t.smem.swizzle) return {start, start + t.smem.pitch};
    return {start + static_cast<std::int64_t>(c.back()) * eb, start + static_cast<std::int64_t>(c.back()) * eb + eb};
  }

  // The elements of tile v (held as its layout says) at their places in buffer `buf`.
  Footprint tile(const Value* v, const Value* buf, bool transposed, bool write, bool async) {
    Footprint f = empty(write, async);
    const Layout& l = k_.layoutOf(v);
    const std::vector<int>& shape = v->type.shape;
    std::vector<int> bufShape = shape;
    if (transposed) std::swap(bufShape[0], bufShape[1]);
    const int regs = numRegs(l, shape);
    const std::vector<std::int64_t> starts = bases(buf);
    for (int w = 0; w < warps_; ++w)
      for (int lane = 0; lane < 32; ++lane) {
        if (write && !isOwner(l, shape, w, lane)) continue;  // copies are written by their owner only
        for (int r = 0; r < regs; ++r) {
          std::vector<int> c = coordinates(l, shape, w, lane, r);
          if (transposed) std::swap(c[0], c[1]);
          const auto [lo, hi] = at(buf->type, bufShape, c);
          for (std::int64_t b : starts) f.warps[static_cast<std::size_t>(w)].add(b + lo, b + hi);
        }
      }
    for (auto& w : f.warps) w.normalize();
    return f;
  }

  // mma reads, per warp, the rows of A and the columns of B of the accumulator elements it holds.
  void mma(const Op& o, std::vector<Footprint>& out) {
    const Value* a = o.operands[0];
    const Value* b = o.operands[1];
    const Value* acc = o.result();
    const Layout& l = k_.layoutOf(acc);
    const int K = a->type.shape[1];
    const int eb = a->type.elem.bytes();
    const int regs = numRegs(l, acc->type.shape);
    Footprint fa = empty(false, false), fb = empty(false, false);
    const auto aStarts = bases(a), bStarts = bases(b);
    for (int w = 0; w < warps_; ++w) {
      std::set<int> rows, cols;
      for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < regs; ++r) {
          const std::vector<int> c = coordinates(l, acc->type.shape, w, lane, r);
          rows.insert(c[0]);
          cols.insert(c[1]);
        }
      ByteSet& sa = fa.warps[static_cast<std::size_t>(w)];
      ByteSet& sb = fb.warps[static_cast<std::size_t>(w)];
      for (std::int64_t base : aStarts)
        for (int row : rows) sa.add(base + std::int64_t{row} * a->type.smem.pitch, base + std::int64_t{row} * a->type.smem.pitch + K * eb);
      for (std::int64_t base : bStarts) {
        if (o.transposed) {  // B as [N][K]: whole rows n
          for (int n : cols) sb.add(base + std::int64_t{n} * b->type.smem.pitch, base + std::int64_t{n} * b->type.smem.pitch + K * eb);
        } else {  // B as [K][N]: column n of every row
          for (int kk = 0; kk < K; ++kk)
            for (int n : cols) {
              const std::int64_t x = base + std::int64_t{kk} * b->type.smem.pitch + std::int64_t{n} * eb;
              sb.add(x, x + eb);
            }
        }
      }
      sa.normalize();
      sb.normalize();
    }
    out.push_back(std::move(fa));
    out.push_back(std::move(fb));
  }
};

}  // namespace

SharedAccesses sharedAccessesOf(const Kernel& k, const Op& op) { return Footprints(k).of(op); }

}  // namespace tilecc::ir
