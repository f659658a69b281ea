// Layouts: which thread holds which element of a tile.
//
// A layout is a blocked distribution over a parent rank P (Triton's blocked encoding):
// per parent dimension, elements per thread (spt), threads per warp (tpw), warps (wpc), and
// an order (fastest dimension first). A tile sees the parent through `dims`: tile axis a is
// parent dimension dims[a]. A tile with fewer axes than the parent is a slice of it: every
// thread along a missing dimension holds a copy (the result of a reduction, or a row index
// that will be broadcast). Layouts do not depend on the tile's extents: an extent below a
// dimension's coverage replicates, one above it repeats.
#pragma once

#include "ir/IR.h"

#include <string>
#include <vector>

namespace tilecc::ir {

struct Layout {
  std::vector<int> spt, tpw, wpc, order;
  std::vector<int> dims;
  bool operator==(const Layout&) const = default;

  int parentRank() const { return static_cast<int>(spt.size()); }
};

/// Readable notation: blocked{spt=[1,4] tpw=[4,8] wpc=[4,1] order=[1,0]} (+ " axes=[0]" for slices).
std::string describe(const Layout& l);

/// The layout of the tile without axis `axis` (a reduction's result; the operand of expand_dims).
Layout removeAxis(const Layout& l, int axis);
/// The layout of trans(t) for t in `l` (rank 2).
Layout transposed(const Layout& l);

/// A coalesced layout for a tile of `shape` with `vec` contiguous elements per thread along
/// axis `fastest` (default: the last), spread over numWarps warps.
Layout defaultLayout(const std::vector<int>& shape, int numWarps, int vec = 1, int fastest = -1);

/// The accumulator layout of dot for an [M, N] result: each warp holds m16n8 tensor-core
/// tiles, thread t rows t/4 (+8, +16, ...) and columns 2(t%4), 2(t%4)+1 of each. As a blocked
/// layout: spt=[1,2] tpw=[8,4] order=[1,0], warps wpc=[Wm,Wn] with every thread holding an
/// even number of 8-row groups (rows pair up into m16 tiles). `chained`: the dot feeds or is
/// fed by another dot (attention): all warps along M, so that rows never cross warps and the
/// row statistics between the dots stay in registers.
Layout mmaLayout(const std::vector<int>& shape, int numWarps, bool chained = false);
bool isMmaLayout(const Layout& l);

/// Geometry of one tile axis under a layout.
struct AxisGeom {
  int parentDim = 0;
  int extent = 1;
  int spt = 1;         // contiguous elements per thread (≤ extent)
  int threads = 1;     // tpw * wpc along the dimension
  int coverage = 1;    // spt * threads: elements covered by one pass of all threads
  int regs = 1;        // registers per thread along the axis
  bool replicated = false;  // coverage > extent: several threads hold each element
};
AxisGeom axisGeom(const Layout& l, int axis, int extent);

/// Registers per thread for a tile of `shape` (row-major over axes, axis 0 slowest).
int numRegs(const Layout& l, const std::vector<int>& shape);

/// Assigns a layout to every tile value (Value::layout indexes the returned table) and
/// inserts ConvertLayout ops where a value is needed in another layout and cannot be cheaply
/// recomputed in it.
std::vector<Layout> assignLayouts(Kernel& k);

}  // namespace tilecc::ir
