// The software pipeliner behind pipeline-loops (PipelineLoops.cpp, where the pass and the
// cp.async form are described; PipelineTma.cpp has the TMA form): one loop, its pipelined loads
// and the rewrite. Internal to those two files.
#pragma once

#include "analysis/Im2colAccess.h"
#include "analysis/StructuredAccess.h"
#include "ir/Builder.h"
#include "target/Target.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace tilecc::ir::pipeliner {

struct Pipe {
  Op* load = nullptr;
  Op* store = nullptr;
  Value* buffer = nullptr;
  int carried = -1;        // the pointer's index among the carried values, or -1: recomputed
  Value* inc = nullptr;    // for a carried pointer: its step per iteration
  int vec = 1;
  int axis = 1;             // the tile axis of the runs: a buffer row (0 for a transposed store)
  Value* ring = nullptr;
  bool narrow = false;               // runs under 4 bytes: no cp.async
  std::optional<StructuredBox> box;  // TMA: the box it reads
  std::optional<Im2colBox> im2col;   // or: the pixels it gathers (TMA's im2col mode)
  std::vector<Value*> pixel;         // im2col: the window position of the program's first pixel
  Value* desc = nullptr;
};

// Whether TMA fills `bt` (a ring slot) box by box (PipelineTma.cpp).
bool tmaBuffer(const Type& bt);

class Pipeliner {
 public:
  Pipeliner(Kernel& k, Op& loop, const Target& t) : k_(k), loop_(loop), body_(*loop.regions[0]), iv_(body_.args[0]), t_(t) {}

  void run();

 private:
  Kernel& k_;
  Op& loop_;
  Block& body_;
  Value* iv_;
  const Target& t_;
  Value* trip_ = nullptr;  // the trip-index atom of the structured-access analysis
  std::vector<Pipe> pipes_;
  std::map<const Value*, std::vector<Op*>> users_;
  std::set<const Value*> inductions_;  // carried scalars the copies' addresses advance with
  bool loadsAhead_ = false;            // nothing in the loop writes memory: scalar loads may be read ahead
  std::map<Op*, std::vector<Value*>> aheadLoads_;  // each scalar load read ahead: its copies, in issue order

  // PipelineLoops.cpp: the cp.async pipeline and what both kinds share.
  void consider(Op& ld);
  Value* scaled(Builder& b, Value* v, std::int64_t n);
  Value* initOf(const Pipe& p) { return loop_.operands[static_cast<std::size_t>(p.carried) + 3]; }
  Value* slot(Builder& b, Value* ring, Value* index);
  void issue(Builder& b, Value* it, const std::function<Value*(const Pipe&)>& base, int ahead,
             const std::function<Value*(Builder&, const Pipe&)>& slotOf);
  bool keepWgmmaInFlight(const std::vector<Op*>& copies);
  bool issueBehindWgmma(const std::vector<Op*>& issued);
  void issueBehindMma(const std::vector<Op*>& issued);
  void moveBehind(const std::vector<Op*>& issued, const Op* anchor, const std::vector<const Op*>& readers);
  bool inRing(const Value* v) const;
  void moveAfter(const std::vector<Op*>& ops, const Op* anchor);
  void allocateRings(Builder& pre);
  void readFromRings(Builder& top, Value* read);
  Value* nextSlot(Builder& b, Value* cur, Value** wrapped = nullptr);
  Value* carry(Value* init, const std::string& name) { return addCarried(k_, loop_, init, name); }

  // PipelineTma.cpp: the TMA pipeline.
  bool tmaBoxes();
  std::vector<const Value*> loopAtoms() const;
  Value* descriptor(const Pipe& p);
  void pixelStart(Builder& pre, Pipe& p);
  std::map<const Value*, Value*> atomsAt(Builder& b, Value* it);
  void checkIterations(Builder& pre);
  Op* issueTma(Builder& b, Value* it, Value* full, Value* index);
  void runTma();
  std::vector<std::pair<Value*, Value*>> invariantOperands();
  bool atOrAfterLoop(const Op* u) const;
};

}  // namespace tilecc::ir::pipeliner
