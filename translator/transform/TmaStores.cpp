// Epilogue stores through TMA (sm_90a, the `_tma` variant): a tile store after a loop whose
// pointers and mask are a box of a tensor (analysis/StructuredAccess.h: the mask's bounds are
// the tensor's edges, which the bulk copy clips to) goes through shared memory instead of one
// global store per thread and element pair:
//
//   tma_store_wait 0            the previous store from this buffer has finished reading it
//   shared_store value → buf    (barriers and the proxy fence come from insert-barriers)
//   tma_store desc, buf panel p, coordinates      one thread, one box per 128-byte panel
//   ...
//   tma_store_wait 0            at the end of the region (the warps' role, or the kernel)
//
// The copy to global memory runs while the warps go on (the next tile of a persistent grid),
// and it writes whole 128-byte lines instead of the 4-byte pieces a wgmma accumulator's
// layout gives each thread. Applies to stores of 2- or 4-byte elements whose rows are whole
// 128-byte panels, at most 256 rows, in kernels without `return` (a program must wait for its
// last bulk store before it ends) that run tile after tile on one program per SM already,
// so that the copy has a next tile to overlap with: a persistent grid, or a warp-specialised
// kernel's store inside a loop of the consumers (a persistent loop the user wrote); and to
// tensors the kernel never reads (a load after barrier() must see the store).
#include "analysis/SharedAccess.h"
#include "analysis/StructuredAccess.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"
#include "transform/TensorMaps.h"

#include <algorithm>
#include <set>

namespace tilecc::ir {

namespace {

const ElemType kI32 = ElemType::of(Scalar::I32);

// The last loop before `op` in its block (the main loop whose results the store writes out).
Op* loopBefore(const Op& op) {
  const Block& b = *op.parent;
  Op* loop = nullptr;
  for (const auto& o : b.ops) {
    if (o.get() == &op) break;
    if (o->kind == OpKind::For) loop = o.get();
  }
  return loop;
}

// The region whose end the store's warps all reach: a warp group's region, or the kernel body.
Block* roleOf(Kernel& k, Op& op) {
  Block* b = op.parent;
  while (b != k.body.get() && !(b->parent && b->parent->kind == OpKind::WarpGroup)) b = b->parent->parent;
  return b;
}

// Whether pointer value `v` may be derived from parameter `base`: through the ops that define
// it, and through loops' carried values (initial and yielded values) and ifs' results.
bool derivedFrom(const Value* v, const Value* base, std::set<const Value*>& seen) {
  if (v == base) return true;
  if (!seen.insert(v).second) return false;
  if (const Op* d = v->def) {
    for (const Value* x : d->operands)
      if (derivedFrom(x, base, seen)) return true;
    const auto r = static_cast<std::size_t>(std::find(d->results.begin(), d->results.end(), v) - d->results.begin());
    if (d->kind == OpKind::For || d->kind == OpKind::If)
      for (const auto& region : d->regions)
        if (const Op* y = yieldOf(*region); y && r < y->operands.size() && derivedFrom(y->operands[r], base, seen)) return true;
    return false;
  }
  const Block* b = v->owner;
  const Op* loop = b ? b->parent : nullptr;
  if (!loop || loop->kind != OpKind::For) return false;
  const auto j = static_cast<std::size_t>(std::find(b->args.begin(), b->args.end(), v) - b->args.begin());
  if (j == 0 || j >= b->args.size()) return false;  // the induction variable
  const Op* y = yieldOf(*b);
  return derivedFrom(loop->operands[j + 2], base, seen) || (y && derivedFrom(y->operands[j - 1], base, seen));
}

// Whether the kernel reads, anywhere, memory through pointers derived from `base`: a load
// after barrier() must see the store (language.md, section 1), which a bulk copy still in
// flight would not guarantee.
bool readsThrough(const Kernel& k, const Value* base) {
  bool reads = false;
  walk(static_cast<const Block&>(*k.body), [&](const Op& o) {
    if (reads || !(o.kind == OpKind::Load || o.kind == OpKind::AtomicAdd)) return;
    std::set<const Value*> seen;
    reads = derivedFrom(o.operands[0], base, seen);
  });
  return reads;
}

// The ops of the kernel that use `v`.
std::vector<Op*> usersOf(Kernel& k, const Value* v) {
  std::vector<Op*> users;
  walk(*k.body, [&](Op& o) {
    if (std::find(o.operands.begin(), o.operands.end(), v) != o.operands.end()) users.push_back(&o);
  });
  return users;
}

// The value store `st` writes, before a layout conversion through a scratch buffer that only
// this store reads (a staged epilogue, assign-layouts): the TMA buffer's own shared store
// converts it, so the conversion's buffer and its two copies go.
const Value* unstaged(Kernel& k, Op& st) {
  const Value* value = st.operands[1];
  Op* load = value->def;
  if (!load || load->kind != OpKind::SharedLoad || usersOf(k, value).size() != 1) return value;
  Value* buf = load->operands[0];
  const std::vector<Op*> users = usersOf(k, buf);
  if (!buf->def || buf->def->kind != OpKind::LocalAlloc || users.size() != 2) return value;
  Op* store = users[0] == load ? users[1] : users[0];
  if (store->kind != OpKind::SharedStore || store->operands[1] != buf || store->parent != load->parent) return value;
  const Value* source = store->operands[0];
  st.operands[1] = const_cast<Value*>(source);
  erase(*load);
  erase(*store);
  erase(*buf->def);
  return source;
}

bool rewrite(Kernel& k, Op& st) {
  const Value* value = st.operands[1];
  const Type vt = value->type;  // a copy: unstaged() below may erase the value
  const int eb = vt.elem.bytes();
  if (!value->type.isTile() || vt.rank() != 2 || (eb != 2 && eb != 4)) return false;
  const int rows = vt.shape[0], cols = vt.shape[1];
  if (rows > 256 || (cols * eb) % 128 != 0) return false;
  Op* loop = loopBefore(st);
  if (!loop) return false;
  Value* trip = k.newValue(Type::scalar(kI32), "trip");
  trip->owner = loop->regions[0].get();  // an atom, never an operand
  const auto box = structuredBox(k, *loop, st, trip);
  if (!box || !box->iterChecks.empty() || readsThrough(k, k.params[static_cast<std::size_t>(box->baseParam)])) return false;
  // A unit stride it needs must already be an assumption of this variant.
  if (box->unitParam >= 0 && std::find(k.assumed.begin(), k.assumed.end(), std::pair<int, std::int64_t>{box->unitParam, kEqualsOne}) == k.assumed.end())
    return false;

  value = unstaged(k, st);

  std::string base = value->name.empty() ? value->hint : value->name;
  if (base.empty()) base = "result";
  Builder top{k, k.body.get(), st.loc, base, 0};
  Value* buf = top.one(OpKind::LocalAlloc, {}, Type::shared(vt.elem, vt.shape, 1, SharedLayout{cols * eb, 128}));
  buf->name = base + "_out";
  Value* desc = addTensorDescriptor(k, *box, buf->type, base + "_out_desc");

  Builder b{k, st.parent, st.loc, base, Builder::indexOf(*st.parent, &st)};
  Op* before = b.create(OpKind::TmaStoreWait, {}, {});
  before->count = 0;
  Op* s = b.create(OpKind::SharedStore, {const_cast<Value*>(value), buf}, {});
  s->access = sharedAccess(k, value, buf->type, false);
  Value* zero = b.intConst(0);
  for (const Poly& c : box->checks) checkStart(k, b, c, st.loc, "wrote", trip);
  std::vector<Value*> starts;
  for (const Poly& p : box->starts) starts.push_back(emitPoly(b, p, trip, zero));
  const int inner = 128 / eb;
  for (int panel = 0; panel < cols / inner; ++panel) {
    std::vector<Value*> ops{desc, buf};
    ops.insert(ops.end(), starts.begin(), starts.end() - 1);
    Value* last = starts.back();
    if (panel) last = b.binary(BinOp::Add, last, b.intConst(panel * inner), kI32);
    ops.push_back(last);
    Op* c = b.create(OpKind::TmaStore, ops, {});
    c->count = panel;
    c->loc = st.loc;
  }
  // The program waits for its last bulk store before its warps finish.
  Block* role = roleOf(k, st);
  const Loc loc = st.loc;
  erase(st);
  Builder end{k, role, loc, base, -1};
  Op* fin = end.create(OpKind::TmaStoreWait, {}, {});
  fin->count = 0;
  return true;
}

}  // namespace

void tmaStores(Kernel& k, const Target& t) {
  // Tile after tile only (a persistent grid, or a loop the user wrote around the TMA loop):
  // the copy overlaps the next tile, and a warp-specialised program has its SM to itself, so
  // the buffer costs no occupancy (elsewhere it could halve the programs an SM holds).
  // Measured on attention (one tile per program): +1% to -2%, so not there.
  if (!t.tma || !t.wgmma || !k.specialised || k.producerWarps == 0) return;
  bool returns = false;
  walk(*k.body, [&](const Op& o) { returns = returns || o.kind == OpKind::Return; });
  if (returns) return;
  // In a loop the user wrote, the buffer is a staged store: where shared memory is short, the
  // driver first rebuilds the kernel without it (stageStores false), then with fewer stages
  // (Triton's persistent attention at D = 128: three key/value stages, their dots overlapped,
  // against two with the buffer).
  std::vector<Op*> stores;
  walk(*k.body, [&](Op& o) {
    if (o.kind == OpKind::Store && o.operands[0]->type.isTile() && (k.persistent || (k.stageStores && insideLoop(o))))
      stores.push_back(&o);
  });
  for (Op* st : stores)
    if (rewrite(k, *st) && !k.persistent) k.stagedStores = true;
}

}  // namespace tilecc::ir
