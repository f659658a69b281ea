// Shared memory by liveness: each buffer lives from its local_alloc to its last use (views of a
// ring count as uses of the ring); a buffer used inside a loop but allocated before it lives
// until the loop ends (as one used in a warp group's region does until the other warps' region
// ends: they run at the same time). Buffers whose lifetimes overlap get disjoint bytes; the others
// share, unless every buffer fits apart within what cannot cost occupancy (sharedBudget): bytes
// shared by buffers one after the other need a barrier between the last read of one and the first
// write of the next (two reductions in a row: softmax, layernorm), and a few hundred bytes more
// never keep a program off an SM. Placement is first fit, largest buffers first (ties: program
// order), so it is deterministic.
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <algorithm>

namespace tilecc::ir {

namespace {

struct Interval {
  int begin = 0, end = 0;  // positions in program order, inclusive
};

struct Buffer {
  Op* alloc = nullptr;
  std::int64_t bytes = 0;
  int align = 16;
  Interval live;
  std::int64_t offset = -1;
};

class Allocator {
 public:
  explicit Allocator(Kernel& k) : k_(k) {}

  void run() {
    number(*k_.body);
    for (Op* op : allocs_) {
      const int pos = position_.at(op);
      Buffer b;
      b.alloc = op;
      b.bytes = op->result()->type.sharedBytes();
      // Swizzled rows XOR address bits up to the swizzle period: the base must be aligned to it.
      const int swizzle = op->result()->type.smem.swizzle;
      b.align = swizzle ? swizzle * 8 : op->result()->type.kind == TypeKind::MBarrier ? 8 : 16;
      b.live = {pos, pos};
      index_[op->result()] = buffers_.size();
      buffers_.push_back(b);
    }
    uses(*k_.body);
    std::int64_t total = place(false);
    if (total > sharedBudget()) total = place(true);
    k_.sharedBytes = static_cast<int>((total + 15) / 16 * 16);
  }

 private:
  Kernel& k_;
  std::map<const Op*, int> position_;
  std::vector<Interval> loops_;  // [first, last] position of each loop's body
  std::vector<Buffer> buffers_;
  std::map<const Value*, std::size_t> index_;
  std::vector<Op*> allocs_;  // in program order
  int next_ = 0;

  // Bytes per program that cannot lower the number of programs an SM holds: its shared memory
  // (164 KB on sm_80, the least of the targets; 1 KB of it reserved per program) split among as
  // many programs as its 2048 threads allow (at most 32), and within the 48 KB of static shared
  // memory.
  std::int64_t sharedBudget() const {
    const int threads = 32 * (k_.numWarps + k_.producerWarps);
    const int programs = std::max(1, std::min(32, 2048 / std::max(32, threads)));
    return std::min<std::int64_t>(48 * 1024, 164 * 1024 / programs - 1024);
  }

  // Places every buffer (sharing bytes between buffers whose lifetimes do not overlap, if
  // `share`); returns the bytes used.
  std::int64_t place(bool share) {
    std::vector<std::size_t> order(buffers_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (buffers_[a].bytes != buffers_[b].bytes) return buffers_[a].bytes > buffers_[b].bytes;
      return buffers_[a].live.begin < buffers_[b].live.begin;
    });
    std::vector<std::size_t> placed;
    std::int64_t total = 0;
    for (std::size_t i : order) {
      Buffer& b = buffers_[i];
      // The lowest aligned offset clear of every placed buffer that is alive at the same time.
      std::int64_t at = 0;
      for (bool moved = true; moved;) {
        moved = false;
        at = (at + b.align - 1) / b.align * b.align;
        for (std::size_t j : placed) {
          const Buffer& o = buffers_[j];
          const bool overlapInTime = !share || (b.live.begin <= o.live.end && o.live.begin <= b.live.end);
          const bool overlapInSpace = at < o.offset + o.bytes && o.offset < at + b.bytes;
          if (overlapInTime && overlapInSpace) {
            at = o.offset + o.bytes;
            moved = true;
          }
        }
      }
      b.offset = at;
      b.alloc->offset = static_cast<int>(at);
      total = std::max(total, at + b.bytes);
      placed.push_back(i);
    }
    return total;
  }

  void number(const Block& b) {
    for (const auto& op : b.ops) {
      position_[op.get()] = next_++;
      if (op->kind == OpKind::LocalAlloc) allocs_.push_back(op.get());
      // A loop's iterations, and warp groups' regions (which run at the same time), keep
      // what they use alive to their end.
      if (op->kind == OpKind::For || (op->kind == OpKind::WarpGroup && op->regions.size() > 1)) {
        const int first = next_;
        for (const auto& r : op->regions) number(*r);
        loops_.push_back({first, next_ - 1});
      } else {
        for (const auto& r : op->regions) number(*r);
      }
    }
  }

  void uses(const Block& b) {
    walk(b, [&](const Op& o) {
      for (const Value* v : o.operands) {
        auto it = index_.find(sharedRoot(v));
        if (it == index_.end()) continue;
        Buffer& buf = buffers_[it->second];
        const int pos = position_.at(&o);
        buf.live.end = std::max(buf.live.end, pos);
        // Used in a loop it was allocated before: alive through the loop's last iteration.
        for (const Interval& l : loops_)
          if (pos >= l.begin && pos <= l.end && buf.live.begin < l.begin) buf.live.end = std::max(buf.live.end, l.end);
      }
    });
  }
};

}  // namespace

void allocateShared(Kernel& k) { Allocator(k).run(); }

}  // namespace tilecc::ir
