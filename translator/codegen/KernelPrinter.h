// The CUDA printer's shared machinery, used by one .cpp per op family (Print*.cpp). It prints
// what the GPU-level IR says and decides nothing about memory, instructions or
// synchronisation: each thread holds a register array per tile (indexed by unrolled loops with
// constant trip counts), index arithmetic comes from the layouts, shared memory is where
// allocateShared put each buffer, barriers are where insertBarriers put them.
#pragma once

#include "codegen/CudaPrinter.h"
#include "ir/IR.h"
#include "ir/Names.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tilecc::codegen {

using namespace ir;

// Marks in kernel text: where the code of a source line starts (kMark, then "<line> <file>"),
// and where kernel code ends. printCudaFile turns them into #line directives or drops them.
inline constexpr char kMark[] = "\x01" "line ";
inline constexpr char kEndMark[] = "\x01" "end";

std::string ctype(ElemType e);
bool isHalfLike(ElemType e);
int log2i(int v);
std::string floatLiteral(double f);

/// A tile's geometry under its layout.
struct Geo {
  const Layout* l = nullptr;
  int layoutIndex = -1;
  std::vector<int> shape;
  std::vector<AxisGeom> ax;
  std::vector<int> rstride;  // register stride of each axis
  int n = 1;                 // registers per thread
};

/// Register view: element `reg` of a tile is base[Σ digit_a(reg) * strides[a]] (or a scalar).
struct View {
  bool scalar = false;
  std::string base;
  std::vector<int> strides;
};

class KernelPrinter {
 public:
  KernelPrinter(const Kernel& k, const Target& t);
  bool run(CudaKernel& out);

  // ---- text ----
  void line(const std::string& s) { body_ += std::string(static_cast<std::size_t>(indent_) * 2, ' ') + s + "\n"; }
  void mark(const Loc& l);
  struct Unsupported {};
  [[noreturn]] void unsupported(const Op& o, const std::string& what);

  // ---- names and declarations ----
  std::string type(ElemType e);
  std::string constType(ElemType e);
  std::string constDecl(ElemType e, const std::string& n);
  const std::string& declare(const std::string& name, const std::string& decl);
  std::string lane();
  std::string warp();
  static std::string bits(const std::string& x, int stride, int count, int range);
  std::string threadPos(int li, int p);

  // ---- layouts ----
  Geo geo(const Value* v);
  static std::string digit(const Geo& g, int a, const std::string& i);
  std::string base(const Geo& g, int a);
  std::string coord(const Geo& g, int a, const std::string& i);
  std::string coordOffset(const Geo& g, int a, const std::string& i);
  std::string owner(const Geo& g, int skipDim = -1);

  // ---- values ----
  std::string zero(ElemType e);
  std::string scalar(const Value* v);
  View& view(const Value* v);
  std::string el(const Value* v, const std::string& i);
  std::string array(const Value* v, const std::string& comment = {});
  void loop(int n, const std::string& stmt);
  bool isTrue(const Value* v);  // a constant true, or a splat of one

  // ---- expressions with the language's semantics ----
  std::string f32(ElemType e, const std::string& x);
  std::string fromF32(ElemType e, const std::string& x);
  std::string convertExpr(ElemType from, ElemType to, const std::string& x);
  std::string binaryExpr(BinOp op, ElemType e, const std::string& a, const std::string& b, bool tile);
  std::string unaryExpr(UnOp op, ElemType e, const std::string& a, bool tile = false);

  // ---- vector words: `vec` consecutive elements as one 2/4/8/16-byte access ----
  static std::string wordType(int total);
  static std::string word(int total, int index);
  std::string unpack(ElemType e, int total, int s);
  std::string packPart(ElemType e, const std::string& x, int shift);
  /// `vec` elements along tile axis `axis` per access, from registers `reg`, `reg + stride`, ...
  struct VecPlan {
    bool ok = false;
    int vec = 1, axis = 0, stride = 1, total = 0;
    bool lastAxis = true;
  };
  VecPlan vecPlan(const Access& a, ElemType e, const Geo& g);
  void vecLoop(const Geo& g, const VecPlan& v, const std::vector<std::string>& body);
  std::string at(const std::string& base, const VecPlan& v, int s);
  std::string elAt(const Value* val, const VecPlan& v, int s);
  /// Packs the elements of `val` at registers reg, reg + stride, ... into word variable `w`.
  void packWords(std::vector<std::string>& body, const Value* val, ElemType e, const VecPlan& v, const std::string& w);

  // ---- shared memory ----
  std::string buffer(const Value* v);
  /// Byte address in buffer `buf` of the element of `v` (in its layout) at register `reg`;
  /// `transposed`: v's axes 0 and 1 are the buffer's 1 and 0.
  std::string sharedAddress(const Value* v, const Value* buf, bool transposed, const std::string& reg);

  // ---- ops, by family ----
  /// Prints the ops of `b`; true when it ends in a return (what follows is unreachable and is
  /// not printed: nvcc warns about unreachable code).
  bool block(const Block& b);
  void op(const Op& o);
  void elementwise(const Op& o);  // PrintElementwise.cpp
  int indexSide(const Op& o);
  bool indexRead(const Value* v);
  void convertPairs(const Op& o);
  void indexCompare(const Op& o, int side);
  void memory(const Op& o);       // PrintMemory.cpp
  void reduce(const Op& o);       // PrintReduce.cpp
  void scan(const Op& o);         // PrintScan.cpp: scans, and reductions kept in element order
  /// Register of x (geometry g) at digit `d` along `axis` and row `j` (row-major over the other
  /// axes' registers); and the flat index of that row's coordinates over the other axes.
  std::string axisReg(const Geo& g, int axis, const std::string& j, const std::string& d);
  std::string rowIndex(const Geo& g, int axis, const std::string& j);
  /// The combine of a reduction or scan as an expression of a and b (a custom combine is printed
  /// once as a lambda before its first use).
  std::string combineExpr(const Op& o, ElemType e, const std::string& a, const std::string& b);
  void shared(const Op& o);       // PrintShared.cpp
  void mma(const Op& o);          // PrintMma.cpp
  void async(const Op& o);        // PrintAsync.cpp
  void hopper(const Op& o);       // PrintHopper.cpp
  void wgmma(const Op& o);
  void control(const Op& o);      // PrintControl.cpp
  void assignCarried(const std::vector<const Value*>& targets, const std::vector<const Value*>& values);

  // ---- what the kernel's header comment and report say ----
  void accessNote(const Op& o, const std::string& what, ElemType e, const VecPlan& v, const std::string& extra = {});
  std::string describeBuffer(const Value* buf);
  std::string variantConditionText();
  bool overlapsDots() const;  // overlapDots pipelined a loop's two wgmma
  int ringLoops() const;      // how many dot loops wait on one ring's barriers (0 or 1: none shared)
  int ringCarrier() const;    // line of the user's loop both roles run around the TMA loop (0: none)

  const Kernel& k_;
  const Target& t_;
  Names names_;
  std::string body_;
  int indent_ = 1;
  std::vector<std::pair<std::string, std::string>> pre_;  // (name, declaration), in order
  std::set<std::string> preNames_;
  std::map<int, View> views_;
  std::map<int, std::string> buffers_;  // buffer value id → pointer variable
  std::map<const Op*, std::string> combines_;  // custom combine → its lambda
  std::map<const Value*, std::vector<const Op*>> users_;
  bool usesHalf_ = false, usesBf16_ = false;
  std::vector<std::string> accesses_;
  std::vector<std::string> barriers_;
  // The thread that issues one-thread operations (TMA, expect-tx): thread 0 of the program, or
  // of the warp group region being printed.
  std::string elected_ = "threadIdx.x == 0";
  // A CTA barrier where it is printed: __syncthreads(), or inside a warp group region a named
  // barrier of that region's warps.
  std::string ctaSync_ = "__syncthreads()";
  int namedBarriers_ = 0;  // named barrier ids given to warp group regions (0 is __syncthreads')
  unsigned markedLine_ = 0;
  std::string markedFile_;
};

}  // namespace tilecc::codegen
