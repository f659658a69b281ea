// A persistent grid for a warp-specialised kernel (after warpSpecialize): the launcher starts
// one program per SM (fewer if the grid is smaller), and each program runs the programs of the
// grid the kernel was written for in turn — tile = blockIdx.x, blockIdx.x + gridDim.x, ... —
// with program_id(a) taken from the tile index (x fastest) and num_programs(a) from that grid
// (a kernel parameter the launcher passes). Both roles walk the same tiles, and the rings'
// slots and phases carry over from one tile to the next, so the producer copies the next
// tile's first stages while the consumers still finish the last one (its epilogue):
//
//   consumers: for (tile ...; read, phase) { program ids; ...; for (k ...) {...}; release; epilogue }
//   producer:  for (tile ...; write, phase) { program ids; coordinates; for (k ...) {...} }
//
// The consumers release the slot of a loop's last iteration after the loop's final wgmma wait
// (the producer waits for it one tile later). Ops that stayed outside the roles (scalars both
// need) move into both tile loops: they may depend on the program ids.
#include "ir/Clone.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"
#include "transform/WarpRoles.h"

#include <algorithm>

namespace tilecc::ir {

namespace {

const ElemType kI32 = ElemType::of(Scalar::I32);

// The mbarrier wait at the top level of a loop body, if any.
Op* ringWait(const Op& loop) {
  for (auto& op : loop.regions[0]->ops)
    if (op->kind == OpKind::MBarrierWait) return op.get();
  return nullptr;
}

// The loop of `b` (top level) that waits on an mbarrier: the pipelined loop.
Op* ringLoop(Block& b) {
  for (auto& op : b.ops)
    if (op->kind == OpKind::For && ringWait(*op)) return op.get();
  return nullptr;
}

class Persist {
 public:
  Persist(Kernel& k, Op& roles) : k_(k), roles_(roles) {}

  bool run() {
    Block& cons = *roles_.regions[0];
    Block& prod = *roles_.regions[1];
    Op* inner = nullptr;  // the producer's one-warp group
    for (auto& op : prod.ops)
      if (op->kind == OpKind::WarpGroup) inner = op.get();
    if (!inner) return false;
    Op* cl = ringLoop(cons);
    Op* pl = ringLoop(*inner->regions[0]);
    if (!cl || !pl) return false;
    // Loops sharing one ring (causal attention's two key loops) are not a GEMM's main loop.
    if (std::count_if(cons.ops.begin(), cons.ops.end(), [](const auto& op) { return op->kind == OpKind::For && ringWait(*op); }) != 1)
      return false;
    // A loop-invariant operand's copy fills its buffer once per program: a next tile would
    // overwrite it while the consumers still read it.
    for (const auto& op : inner->regions[0]->ops)
      if (op->kind == OpKind::TmaLoad) return false;
    // Only loops that keep a wgmma batch in flight (GEMM main loops): attention's loop (a wgmma
    // waited for right away, softmax, then another), made persistent with A from registers,
    // measured 4-11% slower on the H100 (2026-11-25: causal programs differ in length, and a
    // static round-robin order leaves SMs idle at the end); again 2% and 7.5% (causal) with its
    // dots overlapped (2026-11-27: unstaged stores, for the staging buffer no longer fits).
    bool inFlight = false;
    for (const auto& op : cl->regions[0]->ops) inFlight |= op->kind == OpKind::WgmmaWait && op->count == 1;
    if (!inFlight) return false;
    const Op* wait = ringWait(*cl);
    const std::vector<std::size_t> consumed{carriedIndex(*cl, wait->operands[1]), carriedIndex(*cl, wait->operands[2])};
    auto constant = [](const Op& l, std::size_t c) {
      const Value* v = c + 3 < l.operands.size() ? l.operands[c + 3] : nullptr;
      return v && v->def && v->def->kind == OpKind::Constant;
    };
    if (!constant(*cl, consumed[0]) || !constant(*cl, consumed[1]) || !constant(*pl, 0) || !constant(*pl, 1)) return false;
    // Ops that stayed outside the roles, but the shared memory and the barrier after it.
    std::vector<std::unique_ptr<Op>> shared;
    std::vector<std::unique_ptr<Op>> kept;
    for (auto& op : k_.body->ops) {
      const OpKind kd = op->kind;
      const bool stays = kd == OpKind::LocalAlloc || kd == OpKind::MBarrierInit || kd == OpKind::Barrier || op.get() == &roles_;
      (stays ? kept : shared).push_back(std::move(op));
    }
    k_.body->ops = std::move(kept);
    // The producer (copies of the shared ops first): its loop carries (slot, phase) first.
    tileLoop(*inner->regions[0], shared, true, *pl, {0, 1});
    // The consumers: the slots their loop reads and the phase it waits with carry over.
    tileLoop(cons, shared, false, *cl, consumed);
    releaseLastSlot(k_, *cl);
    k_.persistent = true;
    return true;
  }

 private:
  Kernel& k_;
  Op& roles_;

  // Wraps the ops of `region` (after its setmaxnreg) in the tile loop; `shared` ops are cloned
  // at the top of the body (moved there for the consumers); the ring loop's carried values
  // `ring` start from the tile loop's and end it.
  void tileLoop(Block& region, std::vector<std::unique_ptr<Op>>& shared, bool clone, Op& ring, std::vector<std::size_t> carried) {
    const Loc loc = ring.loc;
    std::size_t from = 0;
    while (from < region.ops.size() && region.ops[from]->kind == OpKind::SetMaxNReg) ++from;
    std::vector<std::unique_ptr<Op>> body(std::make_move_iterator(region.ops.begin() + static_cast<long>(from)),
                                          std::make_move_iterator(region.ops.end()));
    region.ops.erase(region.ops.begin() + static_cast<long>(from), region.ops.end());

    Builder b{k_, &region, loc, "tile", -1};
    Value* first = b.one(OpKind::ProgramId, {}, Type::scalar(kI32));  // blockIdx.x: this SM's first tile
    Value* launched = b.one(OpKind::NumPrograms, {}, Type::scalar(kI32));
    launched->def->count = 1;  // gridDim.x: the programs actually launched
    Value* programs[3];
    for (int a = 0; a < 3; ++a) {
      programs[a] = b.one(OpKind::NumPrograms, {}, Type::scalar(kI32));
      programs[a]->def->axis = a;
    }
    Value* total = b.binary(BinOp::Mul, b.binary(BinOp::Mul, programs[0], programs[1], kI32), programs[2], kI32);
    total->name = "tiles";
    std::vector<Value*> ops{first, total, launched};
    std::vector<Type> types;
    for (std::size_t c : carried) {  // the rings' first slot and phase (constants)
      const Value* init = ring.operands[c + 3];
      ops.push_back(b.intConst(init->def->intValue, init->type.elem));
      types.push_back(init->type);
    }
    Op* loop = b.create(OpKind::For, ops, types);
    loop->cmp = CmpPred::Lt;
    Block* lb = b.addRegion(loop);
    Builder in{k_, lb, loc, "tile", -1};
    Value* tile = in.addArg(lb, Type::scalar(kI32), "tile");
    std::vector<Value*> args;
    for (std::size_t i = 0; i < carried.size(); ++i) {
      args.push_back(in.addArg(lb, types[i], i == 0 ? "ring_slot" : "ring_phase"));
      loop->results[i]->name = args.back()->name;
    }
    // Program ids of this tile, x fastest.
    Value* pid[3];
    pid[0] = in.binary(BinOp::Rem, tile, programs[0], kI32);
    Value* rest = in.binary(BinOp::Div, tile, programs[0], kI32);
    pid[1] = in.binary(BinOp::Rem, rest, programs[1], kI32);
    pid[2] = in.binary(BinOp::Div, rest, programs[1], kI32);
    const std::size_t start = lb->ops.size();
    ValueMap map;
    for (auto& op : shared) {
      if (clone) {
        cloneOp(in, *op, map);
      } else {
        op->parent = lb;
        lb->ops.push_back(std::move(op));
      }
    }
    for (auto& op : body) {
      op->parent = lb;
      lb->ops.push_back(std::move(op));
    }
    for (const auto& [from, to] : map) replaceAllUses(*lb, from, to);  // the role's own copies
    // The ring loop starts where the previous tile's ended, and hands over to the next.
    for (std::size_t i = 0; i < carried.size(); ++i) ring.operands[carried[i] + 3] = args[i];
    std::vector<Value*> next;
    for (std::size_t c : carried) next.push_back(ring.results[c]);
    in.create(OpKind::Yield, next, {});
    // program_id(a) → pid[a] in this tile's ops (the copies of the shared ops included).
    std::vector<Op*> ids;
    auto collect = [&](Op& o) {
      if (o.kind == OpKind::ProgramId) ids.push_back(&o);
    };
    for (std::size_t i = start; i < lb->ops.size(); ++i) {
      collect(*lb->ops[i]);
      for (auto& r : lb->ops[i]->regions) walk(*r, collect);
    }
    for (Op* o : ids) {
      replaceAllUses(*lb, o->result(), pid[o->axis]);
      o->results.clear();
      erase(*o);
    }
  }
};

}  // namespace

bool persistentGrid(Kernel& k, const Target& t) {
  if (!t.tma || k.producerWarps == 0) return false;
  Op* roles = warpRoles(k);
  return roles && Persist(k, *roles).run();
}

}  // namespace tilecc::ir
