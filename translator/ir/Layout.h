// Layouts: which thread holds which element of a tile held in registers.
//
// A layout is a blocked distribution over a parent rank P (Triton's blocked encoding):
// per parent dimension, elements per thread (spt), threads per warp (tpw), warps (wpc), and
// an order (fastest dimension first). A tile sees the parent through `dims`: tile axis a is
// parent dimension dims[a]. A tile with fewer axes than the parent is a slice of it: every
// thread along a missing dimension holds a copy (the result of a reduction, or a row index
// that will be broadcast). Layouts do not depend on the tile's extents: an extent below a
// dimension's coverage replicates, one above it repeats.
//
// Registers: a thread holds, per tile axis, `regs` elements (AxisGeom), numbered row-major
// over the axes (axis 0 slowest). The functions below give the coordinates a (warp, lane,
// register) holds; the CUDA printer prints the same arithmetic as text.
#pragma once

#include "ir/Type.h"

#include <optional>
#include <string>
#include <vector>

namespace tilecc::ir {

struct Layout {
  std::vector<int> spt, tpw, wpc, order;
  std::vector<int> dims;
  /// Runs per warp along each parent dimension (empty: one everywhere). A warp holds rpw[p]
  /// runs of tpw[p]·spt[p] elements, one after another, before the next warp's elements begin:
  /// wgmma's accumulator, where each warp owns 16 consecutive rows as two 8-row groups. A tile
  /// with fewer elements along p replicates as usual (coordinates modulo the extent), holding
  /// the runs that fit.
  std::vector<int> rpw;
  bool operator==(const Layout&) const = default;
  bool operator<(const Layout& o) const;

  int parentRank() const { return static_cast<int>(spt.size()); }
  int runsPerWarp(int p) const { return rpw.empty() ? 1 : rpw[static_cast<std::size_t>(p)]; }
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

/// A layout of a rank-2 tile of `shape` with `vec` contiguous elements per thread along axis 1
/// in which every warp holds the same elements as in `src` (so a conversion between the two
/// through shared memory orders its writes and reads with a warp barrier, not a CTA-wide one):
/// src's warps along each axis keep their blocks, lanes spread over each warp's block. Empty
/// where src's warp blocks cannot be covered that way.
std::optional<Layout> warpLocalLayout(const Layout& src, const std::vector<int>& shape, int vec);

/// Elements of padding per row of a buffer that converts a tile of `shape` between layouts:
/// rows of 128 bytes or more get one 4-byte word, so that threads walking a column do not all
/// hit one bank — or, where the layout read back holds longer runs per thread (`runBytes`, up
/// to 16), that many bytes, so that rows stay aligned to its vector loads (a staged epilogue
/// reads 16 bytes per access).
int conversionPad(const std::vector<int>& shape, int bytes, int runBytes);

/// The accumulator layout of dot for an [M, N] result: each warp holds m16n8 tensor-core
/// tiles, thread t rows t/4 (+8, +16, ...) and columns 2(t%4), 2(t%4)+1 of each. As a blocked
/// layout: spt=[1,2] tpw=[8,4] order=[1,0], warps wpc=[Wm,Wn] with every thread holding an
/// even number of 8-row groups (rows pair up into m16 tiles). `chained`: the dot feeds or is
/// fed by another dot (attention): all warps along M, so that rows never cross warps and the
/// row statistics between the dots stay in registers.
Layout mmaLayout(const std::vector<int>& shape, int numWarps, bool chained = false);
bool isMmaLayout(const Layout& l);

/// The accumulator layout of wgmma (sm_90a) for an [M, N] result: warp groups of four warps
/// along M, each warp 16 consecutive rows of every 64-row block (thread t rows t/4 and
/// t/4 + 8) and, along N, the m16n8 fragment repeated: spt=[1,2] tpw=[8,4] rpw=[2,1]
/// wpc=[numWarps,1]. For M a multiple of 16·numWarps (numWarps a multiple of 4).
Layout wgmmaLayout(int numWarps);
bool isWgmmaLayout(const Layout& l);
/// Why a dot of A [M][K] and B [K][N] types into `result` cannot run as wgmma with `numWarps`
/// warps (16-bit operands into fp32, warp groups along M with 16 rows per warp in every 64-row
/// block, N a multiple of 16 up to 256, K of 16), or empty when it can.
std::string wgmmaMisfit(const Type& a, const Type& b, const Type& result, int numWarps);

/// Geometry of one tile axis under a layout.
struct AxisGeom {
  int parentDim = 0;
  int extent = 1;
  int spt = 1;         // contiguous elements per thread (≤ extent)
  int threads = 1;     // tpw * wpc along the dimension
  int rpw = 1;         // runs per warp a thread holds (Layout::rpw, fewer on a short replicated axis)
  int run = 1;         // tpw * spt: elements between a warp's runs
  int coverage = 1;    // spt * rpw * threads: elements covered by one pass of all threads
  int regs = 1;        // registers per thread along the axis
  bool replicated = false;  // coverage > extent: several threads hold each element
};
AxisGeom axisGeom(const Layout& l, int axis, int extent);

/// Registers per thread for a tile of `shape` (row-major over axes, axis 0 slowest).
int numRegs(const Layout& l, const std::vector<int>& shape);

/// How a reduction along tile axis `axis` spreads over threads: lanes and warps that hold
/// distinct elements of the axis (a shuffle tree over the lanes; across the warps, partial
/// results meet in shared memory when warps > 1), and the lane stride of the shuffles.
struct ReduceGeom {
  int lanes = 1, warps = 1;
  int laneStride = 1, warpStride = 1;
  /// A thread's elements along the axis come in runs of `spt` consecutive ones, `chunks` runs
  /// one pass of all threads (`coverage` elements) apart: element order interleaves threads.
  int spt = 1, chunks = 1, coverage = 1;
};
ReduceGeom reduceGeom(const Layout& l, const std::vector<int>& shape, int axis);

/// Whether several threads hold copies of some element (then only owners write).
bool isReplicated(const Layout& l, const std::vector<int>& shape);

/// The layout's thread position along parent dimension p for (warp, lane): which of the
/// tpw[p] * wpc[p] threads along p this one is.
int threadPosition(const Layout& l, int p, int warp, int lane);
/// The first coordinate along parent dimension p that (warp, lane) holds, before replication:
/// warp position · tpw·spt·rpw + lane position · spt.
int threadBase(const Layout& l, int p, int warp, int lane);
/// Offset of a thread's register digit `d` along an axis from its first coordinate.
int registerOffset(const AxisGeom& x, int d);

/// The tile coordinates register `reg` of (warp, lane) holds.
std::vector<int> coordinates(const Layout& l, const std::vector<int>& shape, int warp, int lane, int reg);

/// coordinates() for every register of many threads, with the geometry computed once.
class CoordinateMap {
 public:
  CoordinateMap(const Layout& l, const std::vector<int>& shape);
  int registers() const { return regs_; }
  /// Sets `c` (rank entries) to the coordinates register `reg` of the thread set by thread().
  void thread(int warp, int lane);
  void at(int reg, int* c) const;

 private:
  const Layout& l_;
  std::vector<AxisGeom> ax_;
  std::vector<int> base_, stride_;
  int regs_ = 1;
};

/// Whether (warp, lane) is the one owner of the elements it holds (replicated layouts hold
/// copies; stores and shared-memory writes come from owners only). `skipDim` is left out.
bool isOwner(const Layout& l, const std::vector<int>& shape, int warp, int lane, int skipDim = -1);

}  // namespace tilecc::ir
