// Loop-invariant staging: a value defined before a loop and written to shared memory inside it
// (attention's queries, a dot operand loaded once; also under an `if` at the loop body's top
// level, as block-sparse attention's) is written once, before the loop. Only the
// staging moves (the buffer, its store, and a tf32 rounding feeding nothing else): other
// invariant code stays where the author put it, so register lifetimes do not grow. The one
// exception is a small layout conversion of an invariant value (at most kSmallReadBytes per
// thread: a row mask that both a loop's load and a store after it use, in two layouts): its
// read moves out too, instead of a shared-memory read and barriers every iteration that also
// kept the load it feeds from being copied ahead (user report: a gathered-row GEMM's A
// operand lost its cp.async ring when its row mask also masked the store). A value
// staged twice in one block into buffers of one type (the queries of causal attention's two
// key loops, at the top level or in a loop's body) is then staged once: the second buffer's
// readers read the first.
#include "ir/Layout.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <algorithm>

namespace tilecc::ir {

namespace {

bool definedOutside(const Value* v, const Block& body) {
  const Block* where = v->def ? v->def->parent : v->owner;
  return !where || !within(where, body);
}

bool onlyWriter(const Op& store, const std::vector<Op*>& users) {
  for (const Op* u : users)
    if (u != &store && (u->kind == OpKind::SharedStore || u->kind == OpKind::AsyncCopy || u->kind == OpKind::TmaLoad)) return false;
  return true;
}

void hoistFrom(Op& loop, std::map<const Value*, std::vector<Op*>>& users) {
  Block& body = *loop.regions[0];
  // At the body's top level, or in a branch of an `if` there (block-sparse attention stages
  // its queries under the `if` that skips a key block).
  std::vector<Op*> stores;
  auto collect = [&](Block& b) {
    for (auto& op : b.ops)
      if (op->kind == OpKind::SharedStore) stores.push_back(op.get());
  };
  collect(body);
  for (auto& op : body.ops)
    if (op->kind == OpKind::If)
      for (auto& r : op->regions) collect(*r);
  for (Op* s : stores) {
    Value* v = s->operands[0];
    Value* buf = s->operands[1];
    Op* alloc = buf->def;
    if (!alloc || alloc->kind != OpKind::LocalAlloc || alloc->parent != s->parent) continue;
    // The buffer holds nothing but this value: no other op writes it.
    if (!onlyWriter(*s, users[buf])) continue;
    Op* round = nullptr;
    if (v->def && v->def->kind == OpKind::Unary && v->def->unop == UnOp::RoundTf32 && v->def->parent == s->parent &&
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

// Reads of conversions whose buffer is written once before the loop, by nothing inside it.
void hoistSmallReads(Kernel& k, Op& loop, std::map<const Value*, std::vector<Op*>>& users) {
  constexpr int kSmallReadBytes = 32;
  Block& body = *loop.regions[0];
  std::vector<Op*> reads;
  for (auto& op : body.ops)
    if (op->kind == OpKind::SharedLoad && op->result()->layout >= 0) reads.push_back(op.get());
  for (Op* r : reads) {
    Value* buf = r->operands[0];
    if (!buf->def || buf->def->kind != OpKind::LocalAlloc || !definedOutside(buf, body)) continue;
    const Op* store = nullptr;
    for (const Op* u : users[buf])
      if (u->kind == OpKind::SharedStore) store = u;
    const Value* v = r->result();
    const int bytes = numRegs(k.layoutOf(v), v->type.shape) * std::max(1, v->type.elem.bytes());
    if (!store || !onlyWriter(*store, users[buf]) || within(store->parent, body) || bytes > kSmallReadBytes) continue;
    if (std::any_of(r->operands.begin(), r->operands.end(), [&](const Value* x) { return !definedOutside(x, body); })) continue;
    moveBefore(*r, loop);
  }
}

void shareStaging(Block& b, std::map<const Value*, std::vector<Op*>>& users) {
  std::vector<Op*> first;  // stores that fill a buffer written by nothing else
  std::vector<Op*> again;  // the second stores and their buffers
  for (auto& op : b.ops) {
    if (op->kind != OpKind::SharedStore) continue;
    Value* buf = op->operands[1];
    if (!buf->def || buf->def->kind != OpKind::LocalAlloc || buf->def->parent != &b || !onlyWriter(*op, users[buf])) continue;
    Op* same = nullptr;
    for (Op* f : first)
      if (f->operands[0] == op->operands[0] && f->operands[1]->type == buf->type) same = f;
    if (!same) {
      first.push_back(op.get());
      continue;
    }
    again.push_back(op.get());
    again.push_back(buf->def);
    replaceAllUses(b, buf, same->operands[1]);
  }
  for (Op* o : again) erase(*o);
}

}  // namespace

void hoistSharedStores(Kernel& k) {
  auto users = collectUsers(*k.body);
  std::vector<Op*> loops;
  walk(*k.body, [&](Op& o) {
    if (o.kind == OpKind::For) loops.push_back(&o);
  });
  // Innermost first: staging hoisted out of an inner loop may leave the outer one as well.
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    hoistFrom(**it, users);
    hoistSmallReads(k, **it, users);
  }
  // In every block: the kernel's, and a loop's around the key loops (Triton's persistent
  // attention stages its queries in the body of its tile loop).
  shareStaging(*k.body, users);
  for (Op* l : loops) shareStaging(*l->regions[0], users);
}

}  // namespace tilecc::ir
