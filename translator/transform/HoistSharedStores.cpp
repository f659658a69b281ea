// Loop-invariant staging: a value defined before a loop and written to shared memory inside it
// (attention's queries, a dot operand loaded once) is written once, before the loop. Only the
// staging moves (the buffer, its store, and a tf32 rounding feeding nothing else): other
// invariant code stays where the author put it, so register lifetimes do not grow.
#include "ir/OpTraits.h"
#include "transform/Passes.h"

namespace tilecc::ir {

namespace {

std::unique_ptr<Op> take(Op& op) {
  Block& b = *op.parent;
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it)
    if (it->get() == &op) {
      std::unique_ptr<Op> owned = std::move(*it);
      b.ops.erase(it);
      return owned;
    }
  return nullptr;
}

void moveBefore(Op& op, Op& anchor) {
  std::unique_ptr<Op> owned = take(op);
  Block& b = *anchor.parent;
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it)
    if (it->get() == &anchor) {
      owned->parent = &b;
      b.ops.insert(it, std::move(owned));
      return;
    }
}

bool definedOutside(const Value* v, const Block& body) {
  const Block* where = v->def ? v->def->parent : v->owner;
  return !where || !within(where, body);
}

void hoistFrom(Op& loop, std::map<const Value*, std::vector<Op*>>& users) {
  Block& body = *loop.regions[0];
  std::vector<Op*> stores;
  for (auto& op : body.ops)
    if (op->kind == OpKind::SharedStore) stores.push_back(op.get());
  for (Op* s : stores) {
    Value* v = s->operands[0];
    Value* buf = s->operands[1];
    Op* alloc = buf->def;
    if (!alloc || alloc->kind != OpKind::LocalAlloc || alloc->parent != &body) continue;
    // The buffer holds nothing but this value: no other op writes it.
    bool onlyWriter = true;
    for (Op* u : users[buf])
      if (u != s && (u->kind == OpKind::SharedStore || u->kind == OpKind::AsyncCopy || u->kind == OpKind::TmaLoad)) onlyWriter = false;
    if (!onlyWriter) continue;
    Op* round = nullptr;
    if (v->def && v->def->kind == OpKind::Unary && v->def->unop == UnOp::RoundTf32 && v->def->parent == &body &&
        users[v].size() == 1) {
      round = v->def;
      v = round->operands[0];
    }
    if (!definedOutside(v, body)) continue;
    moveBefore(*alloc, loop);
    if (round) moveBefore(*round, loop);
    moveBefore(*s, loop);
  }
}

}  // namespace

void hoistSharedStores(Kernel& k) {
  auto users = collectUsers(*k.body);
  std::vector<Op*> loops;
  walk(*k.body, [&](Op& o) {
    if (o.kind == OpKind::For) loops.push_back(&o);
  });
  // Innermost first: staging hoisted out of an inner loop may leave the outer one as well.
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) hoistFrom(**it, users);
}

}  // namespace tilecc::ir
