// Why a dot operand's load in a loop was not copied ahead, for the report: after
// pipeline-loops, a load still in a loop that feeds a dot and is wide enough for cp.async
// (at least 4 bytes per access) says which rule of the pipeliner it missed, where the user can
// act on it: the loop's form, an `if` whose condition a later iteration cannot compute, an
// operand mma needs transposed (8-bit B given [K][N]). Other misses (an operand too narrow, a
// chain the pipeliner cannot clone ahead) already show in the access's width or stay silent.
#include "transform/Passes.h"

namespace tilecc::ir {

namespace {

// The innermost `for` around `b`, or null.
const Op* enclosingLoop(const Block* b) {
  for (const Op* o = b ? b->parent : nullptr; o; o = o->parent ? o->parent->parent : nullptr)
    if (o->kind == OpKind::For) return o;
  return nullptr;
}

// What the pipeliner copies ahead: a load whose value fills a buffer that mma or wgmma reads as
// an operand (make-shared-explicit has staged the dot's operands by now).
const Op* feedsTensorCores(const Value* v, const std::map<const Value*, std::vector<Op*>>& users) {
  const auto none = std::vector<Op*>{};
  const auto usersOf = [&](const Value* x) -> const std::vector<Op*>& {
    const auto it = users.find(x);
    return it == users.end() ? none : it->second;
  };
  for (const Op* st : usersOf(v)) {
    if (st->kind != OpKind::SharedStore || st->operands[0] != v) continue;
    const Value* buf = st->operands[1];
    for (const Op* u : usersOf(buf))
      if ((u->kind == OpKind::Mma || u->kind == OpKind::Wgmma) && u->operands[2] != buf) return st;
  }
  return nullptr;
}

}  // namespace

void notePipelineMisses(Kernel& k) {
  const auto users = collectUsers(*k.body);
  walk(*k.body, [&](Op& o) {
    if (o.kind != OpKind::Load || !o.result() || !o.result()->type.isTile() || !o.note.empty()) return;
    const Op* loop = enclosingLoop(o.parent);
    const Op* st = loop && o.access.vec * o.result()->type.elem.bytes() >= 4 ? feedsTensorCores(o.result(), users) : nullptr;
    if (!st) return;
    const std::string at = " (line " + std::to_string(loop->loc.line) + ")";
    if (o.parent != loop->regions[0].get())
      o.note = "not copied ahead: it is under an 'if' in its loop" + at +
               " whose condition, or the load's address or mask, a later iteration cannot compute (from the loop counter and values "
               "before the loop through arithmetic, and scalar loads where nothing in the loop writes memory)";
    else if (st->transposed && o.access.axis != 0)
      o.note = "not copied ahead: mma reads this operand transposed in shared memory (" + std::to_string(o.result()->type.elem.bytes() * 8) +
               "-bit elements K-major), and cp.async copies runs only as they lie in memory; given with K contiguous (B as [N][K], "
               "read through trans()) it is copied ahead";
    else if (loop->cmp != CmpPred::Lt)
      o.note = "not copied ahead: its loop" + at + " does not count up with '<' (the pipeliner takes for (i = lo; i < hi; i += step); '<=', '!=' with a constant step, and a signed counter counting down count as '<')";
  });
}

}  // namespace tilecc::ir
