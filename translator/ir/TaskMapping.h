// Task mappings (Hidet's notation, contract v1): the user's way to write a layout, and the way
// reports and generated comments print one.
//
//   spatial<d0, d1, ...>  a grid of tasks on as many threads, one each, row-major;
//   repeat<d0, d1, ...>   the grid on one thread;
//   compose<A, B, ...>    each task of A is a whole B (and so on), outermost first.
//
// A mapping and a blocked layout describe the same distribution when every warp holds the same
// elements and every thread the same elements: how warps and lanes are numbered does not
// matter (a warp accesses memory as a whole), so toLayout() only has to match the partition.
#pragma once

#include "ir/Layout.h"

#include <optional>
#include <string>
#include <vector>

namespace tilecc::ir {

struct TaskMapping {
  struct Part {
    bool spatial = true;
    std::vector<int> extents;
  };
  std::vector<Part> parts;  // outermost first, nested composes flattened

  int rank() const { return parts.empty() ? 0 : static_cast<int>(parts[0].extents.size()); }
  int threads() const;
  std::vector<int> taskExtents() const;
};

/// compose<spatial<4, 1>, spatial<8, 4>, repeat<2, 16>>; a single part bare; parts of extent 1
/// everywhere left out.
std::string describe(const TaskMapping& m);

/// The blocked layout that distributes the tasks as `m` does over numWarps warps; nullopt with
/// the reason in `why` when none does (a mapping must have numWarps * 32 threads, and per
/// dimension its digits, most significant first, must be repeats, then warps, then lanes,
/// then repeats).
std::optional<Layout> toLayout(const TaskMapping& m, int numWarps, std::string* why);

/// `l` as a task mapping of its coverage (the elements one pass of all threads holds; a larger
/// tile repeats it): compose<spatial<warps>, spatial<lanes>, repeat<per thread>>, over the
/// tile's axes; a slice says how many threads hold each element.
std::string describeAsTaskMapping(const Layout& l);

}  // namespace tilecc::ir
