// Which bytes of shared memory each warp touches when an op runs (after allocateShared has
// placed the buffers). The footprints are exact where the layouts say which thread holds which
// element (stores, loads, async copies, mma operand reads) and whole buffers otherwise. The
// barrier pass compares them: a conflict between two warps needs a CTA barrier, a conflict
// within one warp a warp barrier, disjoint footprints none.
#pragma once

#include "ir/IR.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tilecc::ir {

/// A set of byte ranges [lo, hi), sorted and disjoint once normalized.
struct ByteSet {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  void add(std::int64_t lo, std::int64_t hi) {
    if (!ranges.empty() && ranges.back().second == lo) ranges.back().second = hi;  // a thread's run
    else ranges.push_back({lo, hi});
  }
  void normalize();  // sorts and merges (cheap when already sorted)
  bool intersects(const ByteSet& o) const;
  bool empty() const { return ranges.empty(); }
  bool operator==(const ByteSet&) const = default;
};

/// One access: the bytes each warp touches, and how.
struct Footprint {
  std::vector<ByteSet> warps;  // one per warp of the program
  bool write = false;
  bool async = false;          // completes later (cp.async, TMA): visible after a wait
  bool tma = false;            // a TMA copy: complete (and visible to the waiter) at its mbarrier
  bool bulkRead = false;       // a TMA store's read of the buffer: done at the issuer's tma_store_wait
  std::int64_t lo = 0, hi = 0;  // the bytes of all warps together lie in [lo, hi)
  bool operator==(const Footprint&) const = default;
  /// Sets lo and hi from the warps' sets (after they are normalized).
  void bound();
};

/// The accesses of one op, in order; `barrierInside`: the op synchronises the whole program
/// between `before` and `after` (a reduction across warps).
struct SharedAccesses {
  std::vector<Footprint> before;
  bool barrierInside = false;
  std::vector<Footprint> after;
};

/// A tile's access to a buffer (shared_store, shared_load): runs of consecutive elements along
/// the tile axis that lies along the buffer's rows (the last axis; axis 0 when stored
/// transposed), as wide as the thread's run, 16 bytes and the row pitch allow.
Access sharedAccess(const Kernel& k, const Value* v, const Type& buf, bool transposed);

/// With `exact` false, only each access's bounds (lo, hi) are set (no per-warp sets): a cheap
/// first test, since most pairs of accesses touch different buffers.
SharedAccesses sharedAccessesOf(const Kernel& k, const Op& op, bool exact = true);

}  // namespace tilecc::ir
