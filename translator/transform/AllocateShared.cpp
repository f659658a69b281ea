// Shared memory by liveness: each buffer lives from its first use to its last (views of a ring
// count as uses of the ring; a local_alloc only names bytes); a buffer used inside a loop but
// allocated before it lives through the whole loop (its iterations). The roles of a
// warp-specialised kernel run at the same time: a use in the producer's region counts as one
// throughout the consumers' ops that wait on its copies (their ring loop, or the tile loop of a
// persistent grid), so what the consumers use after those (a staged epilogue) may reuse the
// rings' bytes; without such waits both regions count as one loop. Buffers whose lifetimes
// overlap get disjoint bytes; the others share, unless every buffer fits apart within what
// cannot cost occupancy (sharedBudget): bytes shared by buffers one after the other need a
// barrier between the last read of one and the first write of the next (two reductions in a
// row: softmax, layernorm), and a few hundred bytes more never keep a program off an SM.
// mbarriers never share bytes, with data or with each other: PTX requires an mbarrier.inval
// before an mbarrier's bytes serve another purpose (a few dozen bytes per kernel).
// Placement is first fit, largest buffers first (ties: program order), so it is deterministic.
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
  bool mbarrier = false;
  Interval live{1 << 30, -1};  // empty until a use
  std::int64_t offset = -1;
};

class Allocator {
 public:
  explicit Allocator(Kernel& k) : k_(k) {}

  void run() {
    number(*k_.body);
    for (Op* op : allocs_) {
      Buffer b;
      b.alloc = op;
      b.bytes = op->result()->type.sharedBytes();
      // Swizzled rows XOR address bits up to the swizzle period: the base must be aligned to it.
      const int swizzle = op->result()->type.smem.swizzle;
      b.mbarrier = op->result()->type.kind == TypeKind::MBarrier;
      b.align = swizzle ? swizzle * 8 : b.mbarrier ? 8 : 16;
      index_[op->result()] = buffers_.size();
      buffers_.push_back(b);
    }
    uses(*k_.body);
    for (Buffer& b : buffers_)
      if (b.live.begin > b.live.end) b.live = {position_.at(b.alloc), position_.at(b.alloc)};  // never used
    std::int64_t total = place(false);
    if (total > sharedBudget()) total = place(true);
    k_.sharedBytes = static_cast<int>((total + 15) / 16 * 16);
  }

 private:
  Kernel& k_;
  std::map<const Op*, int> position_;
  std::vector<Interval> loops_;  // [first, last] position of each loop's body
  struct Roles {
    Interval producer;  // the producer's region
    Interval waits;     // the consumers' ops that wait on its copies
  };
  std::vector<Roles> roles_;
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
          const bool overlapInTime = !share || b.mbarrier || o.mbarrier || (b.live.begin <= o.live.end && o.live.begin <= b.live.end);
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
    for (const auto& op : b.ops) number(*op);
  }

  void number(const Op& op) {
    position_[&op] = next_++;
    if (op.kind == OpKind::LocalAlloc) allocs_.push_back(const_cast<Op*>(&op));
    const int first = next_;
    if (op.kind == OpKind::WarpGroup && op.regions.size() == 2) {
      // Consumers, then the producer: its uses count throughout the consumers' waiting ops.
      Interval waits{0, -1};
      for (const auto& c : op.regions[0]->ops) {
        const int at = next_;
        number(*c);
        bool waitsHere = c->kind == OpKind::MBarrierWait;
        for (const auto& r : c->regions)
          walk(static_cast<const Block&>(*r), [&](const Op& x) { waitsHere = waitsHere || x.kind == OpKind::MBarrierWait; });
        if (waitsHere) waits = {waits.end < 0 ? at : waits.begin, next_ - 1};
      }
      const int producer = next_;
      number(*op.regions[1]);
      if (waits.end >= 0) roles_.push_back({{producer, next_ - 1}, waits});
      else loops_.push_back({first, next_ - 1});  // no waits to tie it to: both regions as one loop
      return;
    }
    for (const auto& r : op.regions) number(*r);
    // A loop's iterations (and warp groups' regions, which run at the same time) keep what
    // they use alive through all of it.
    if (op.kind == OpKind::For || (op.kind == OpKind::WarpGroup && op.regions.size() > 1)) loops_.push_back({first, next_ - 1});
  }

  void uses(const Block& b) {
    walk(b, [&](const Op& o) {
      for (const Value* v : o.operands) {
        auto it = index_.find(sharedRoot(v));
        if (it == index_.end()) continue;
        Buffer& buf = buffers_[it->second];
        const int allocated = position_.at(buf.alloc);
        const int pos = position_.at(&o);
        Interval use{pos, pos};
        for (const Roles& r : roles_)
          if (pos >= r.producer.begin && pos <= r.producer.end) use = r.waits;
        // Used in a loop it was allocated before: alive through the whole loop (all iterations).
        for (bool grew = true; grew;) {
          grew = false;
          for (const Interval& l : loops_)
            if (allocated < l.begin && use.begin <= l.end && l.begin <= use.end && (l.begin < use.begin || l.end > use.end)) {
              use = {std::min(use.begin, l.begin), std::max(use.end, l.end)};
              grew = true;
            }
        }
        buf.live.begin = std::min(buf.live.begin, use.begin);
        buf.live.end = std::max(buf.live.end, use.end);
      }
    });
  }
};

}  // namespace

void allocateShared(Kernel& k) { Allocator(k).run(); }

}  // namespace tilecc::ir
