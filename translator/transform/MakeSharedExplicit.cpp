// Tile level → GPU level: every use of shared memory becomes explicit ops over typed buffers,
// with their shared layouts (row pitch, padding) and access widths decided here, so that the
// allocator and the barrier pass see each of them and the printer only prints.
#include "analysis/SharedAccess.h"
#include "ir/Builder.h"
#include "ir/InternalError.h"
#include "ir/OpTraits.h"
#include "transform/Passes.h"

#include <algorithm>

namespace tilecc::ir {

namespace {

/// Bytes per shared-memory row read by ldmatrix: a multiple of 16 with an odd quotient, so
/// that the eight rows one ldmatrix reads fall into distinct banks.
int ldmatrixPitch(int rowBytes) {
  int p = (rowBytes + 15) / 16 * 16;
  if ((p / 16) % 2 == 0) p += 16;
  return p;
}

/// The widest swizzle (128, 64 or 32 bytes) whose period divides a row of `rowBytes`: wgmma
/// and TMA read swizzled rows in panels of that many bytes.
int swizzleFor(int rowBytes) {
  for (int s : {128, 64, 32})
    if (rowBytes % s == 0) return s;
  internalError("a swizzled row of " + std::to_string(rowBytes) + " bytes");
}

struct Lowering {
  Kernel& k;
  std::map<const Value*, std::vector<Op*>> users;

  Value* alloc(Builder& b, const Type& t, const Value* of, const std::string& suffix) {
    Value* buf = b.one(OpKind::LocalAlloc, {}, t);
    if (!of->name.empty()) buf->name = of->name + suffix;
    // A hint is named with what its value computes (ir::Names: "_smem" for a buffer), so a
    // suffix saying the same is not added twice (attention's P was staged as "acc_smem_smem").
    buf->hint = of->hint.empty() ? of->name + suffix : suffix == "_" + computes(buf) ? of->hint : of->hint + suffix;
    return buf;
  }

  void store(Builder& b, Value* v, Value* buf, bool transposed) {
    Op* s = b.create(OpKind::SharedStore, {v, buf}, {});
    s->transposed = transposed;
    if (v->type.isTile()) s->access = sharedAccess(k, v, buf->type, transposed);
  }

  // The load takes over `result` (its users stay as they are).
  void load(Builder& b, Value* buf, Value* result) {
    Op* l = b.create(OpKind::SharedLoad, {buf}, {});
    result->def = l;
    l->results.push_back(result);
    if (result->type.isTile()) l->access = sharedAccess(k, result, buf->type, false);
  }

  // Whether a dot operand's registers run along its first axis (B's K, A's M): stored as they
  // lie, such an operand is read transposed.
  bool runsAlongFirstAxis(const Value* v) {
    const Layout& l = k.layoutOf(v);
    return l.order.front() == l.dims[0];
  }

  // Whether dot reads B from shared memory transposed ([N][K]) rather than as [K][N]: always for
  // tf32 and int8 (their fragments need k-consecutive elements and ldmatrix cannot transpose
  // them); for 16-bit types when b's registers run along K (written as they lie, they are read
  // by ldmatrix without .trans); never for IEEE fp32, read element by element.
  bool readsBTransposed(const Value* b, MmaInstr instr) {
    switch (instr) {
      case MmaInstr::S8:
      case MmaInstr::TF32: return true;
      case MmaInstr::F16:
      case MmaInstr::BF16: return runsAlongFirstAxis(b);
      case MmaInstr::FmaIEEE: return false;
    }
    return false;
  }

  // Whether dot reads A from shared memory as [K][M] rather than [M][K]: for 16-bit types when
  // a's registers run along M (A given M-contiguous, a column-major view: stored as it lies, it
  // moves 16 bytes per copy and is pipelined like any operand; ldmatrix.trans or wgmma's
  // transposed A reads it).
  bool readsATransposed(const Value* a, MmaInstr instr) {
    return (instr == MmaInstr::F16 || instr == MmaInstr::BF16) && a->layout >= 0 && runsAlongFirstAxis(a);
  }

  // dot(a, b, acc) → A and B staged in shared memory, then mma.sync (rows padded for ldmatrix)
  // or, when the result has wgmma's accumulator layout, wgmma (swizzled panels it reads through
  // descriptors) and a wait for it: nothing else stays in flight across the op.
  void dot(Op& d) {
    Value* a = d.operands[0];
    Value* b = d.operands[1];
    Value* acc = d.operands[2];
    Value* r = d.result();
    const bool wgmma = isWgmmaLayout(k.layoutOf(r));
    const ElemType e = a->type.elem;
    MmaInstr instr;
    switch (e.kind) {
      case Scalar::F16: instr = MmaInstr::F16; break;
      case Scalar::BF16: instr = MmaInstr::BF16; break;
      case Scalar::I8: instr = MmaInstr::S8; break;
      case Scalar::F32: instr = d.tf32 ? MmaInstr::TF32 : MmaInstr::FmaIEEE; break;
      default: internalError("dot of " + toString(a->type) + " operands in " + k.name);
    }
    const int eb = e.bytes();
    const int M = a->type.shape[0], K = a->type.shape[1], N = b->type.shape[1];
    const bool bT = readsBTransposed(b, instr);
    Builder bld{k, d.parent, d.loc, r->hint.empty() ? r->name : r->hint, -1};
    bld.setInsertionBefore(d);
    auto rows = [&](int rowBytes) {
      return wgmma ? SharedLayout{rowBytes, swizzleFor(rowBytes)} : SharedLayout{ldmatrixPitch(rowBytes), 0};
    };
    const bool aRegs = wgmma && (instr == MmaInstr::F16 || instr == MmaInstr::BF16) && a->type.isTile() && a->layout >= 0 &&
                       k.layoutOf(a) == k.layoutOf(r);
    const bool aT = !aRegs && readsATransposed(a, instr);
    const Type ta = aT ? Type::shared(e, {K, M}, 1, rows(M * eb)) : Type::shared(e, {M, K}, 1, rows(K * eb));
    const Type tb = bT ? Type::shared(e, {N, K}, 1, rows(K * eb)) : Type::shared(e, {K, N}, 1, rows(N * eb));
    // B read transposed from trans(x): x as it lies is B's [N][K].
    Value* bSrc = b;
    bool bStoreTransposed = bT;
    if (bT && b->def && b->def->kind == OpKind::Trans) {
      bSrc = b->def->operands[0];
      bStoreTransposed = false;
    }
    // A read as [K][M] from trans(x): x as it lies is A's [K][M].
    Value* aSrc = a;
    bool aStoreTransposed = aT;
    if (aT && a->def && a->def->kind == OpKind::Trans) {
      aSrc = a->def->operands[0];
      aStoreTransposed = false;
    }
    // A from registers (aRegs): wgmma's register fragment of A is its accumulator layout's (each
    // warp 16 rows, pairs of columns), so a 16-bit A already in the result's layout (attention's
    // P, the previous wgmma's result converted) needs no shared memory, fence or barrier.
    Value* abuf = aRegs ? a : alloc(bld, ta, aSrc, "_smem");
    Value* bbuf = alloc(bld, tb, bSrc, "_smem");
    auto rounded = [&](Value* v) {
      if (instr != MmaInstr::TF32) return v;
      Value* t = bld.unary(UnOp::RoundTf32, v);
      t->layout = v->layout;
      return t;
    };
    if (!aRegs) store(bld, rounded(aSrc), abuf, aStoreTransposed);
    store(bld, rounded(bSrc), bbuf, bStoreTransposed);
    Op* m = bld.create(wgmma ? OpKind::Wgmma : OpKind::Mma, {abuf, bbuf, acc}, {});
    m->instr = instr;
    m->transposed = bT;
    m->transposedA = aT;
    m->note = d.note;  // why not wgmma, for the report
    Value* out = r;
    if (wgmma) {  // the wgmma's result is pending until the wait
      out = k.newValue(r->type, r->name);
      out->hint = r->hint;
      out->layout = r->layout;
      Op* w = bld.create(OpKind::WgmmaWait, {out}, {});
      w->count = 0;
      r->def = w;
      w->results.push_back(r);
    }
    out->def = m;
    m->results.push_back(out);
    d.results.clear();
    erase(d);
  }

  // A layout conversion or reshape through a scratch buffer: every owner writes, all read.
  void exchange(Op& c) {
    Value* x = c.operands[0];
    Value* r = c.result();
    const int eb = x->type.elem.bytes();
    const bool reshape = c.kind == OpKind::Reshape;
    const int axis = r->type.rank() - 1;
    const int run = r->type.rank() >= 2 ? axisGeom(k.layoutOf(r), axis, r->type.shape[static_cast<std::size_t>(axis)]).spt * eb : eb;
    const int pad = reshape ? 0 : conversionPad(x->type.shape, eb, run);
    Type t = Type::shared(x->type.elem, x->type.shape, 1, {(x->type.shape.back() + pad) * eb, 0});
    Builder bld{k, c.parent, c.loc, r->hint.empty() ? r->name : r->hint, -1};
    bld.setInsertionBefore(c);
    Value* buf = alloc(bld, t, r, reshape ? "_reshape" : "_cvt");
    store(bld, x, buf, false);
    load(bld, buf, r);
    c.results.clear();
    erase(c);
  }

  // Partials of a reduction (or scan) across warps meet in a scratch buffer: per warp along the
  // axis, one value per result element; for combines kept in element order (scans, custom and
  // product reductions), one per run of consecutive elements (ReduceGeom::chunks).
  void reduce(Op& o) {
    const Value* x = o.operands[0];
    const ReduceGeom g = reduceGeom(k.layoutOf(x), x->type.shape, o.axis);
    if (g.warps <= 1) return;
    const bool arg = o.reduce == ReduceKind::ArgMax || o.reduce == ReduceKind::ArgMin;
    const bool ordered = o.kind == OpKind::Scan || o.reduce == ReduceKind::Prod || o.reduce == ReduceKind::Custom;
    const ElemType xe = x->type.elem;
    const int valueBytes = !ordered && (xe.kind == Scalar::F16 || xe.kind == Scalar::BF16) ? 4 : xe.bytes();  // sums of halves in float
    const std::int64_t rows = x->type.numel() / x->type.shape[static_cast<std::size_t>(o.axis)];
    const std::int64_t outN = ordered ? rows * g.chunks : o.result()->type.numel();
    // Values, then (argmax/argmin) their indices from the next 4-byte boundary.
    const int bytes = static_cast<int>((g.warps * outN * valueBytes + 3) / 4 * 4 + (arg ? g.warps * outN * 4 : 0));
    Builder bld{k, o.parent, o.loc, o.result()->hint.empty() ? o.result()->name : o.result()->hint, -1};
    bld.setInsertionBefore(o);
    Value* buf = alloc(bld, Type::shared(ElemType::of(Scalar::U8), {bytes}, 1, {bytes, 0}), o.result(), "_partials");
    o.operands.push_back(buf);
  }

  // Old values of an atomic reach every thread that holds a copy: the owners that performed
  // the atomics (a tile in a replicated layout; the one thread of a scalar atomic) write them,
  // everyone reads them back.
  void atomic(Op& o) {
    Value* raw = o.result();
    if (users[raw].empty()) return;
    const Value* p = o.operands[0];
    if (p->type.isTile() && !isReplicated(k.layoutOf(p), p->type.shape)) return;
    const ElemType e = raw->type.elem;
    const std::vector<int> shape = raw->type.isTile() ? raw->type.shape : std::vector<int>{1};
    Builder bld{k, o.parent, o.loc, raw->hint.empty() ? raw->name : raw->hint, -1};
    bld.setInsertionAfter(o);
    Value* buf = alloc(bld, Type::shared(e, shape, 1, {(shape.back() + conversionPad(shape, e.bytes(), e.bytes())) * e.bytes(), 0}), raw, "_shared");
    store(bld, raw, buf, false);
    Value* old = k.newValue(raw->type, raw->name);
    old->hint = raw->hint;
    old->layout = raw->layout;
    for (Op* u : users[raw]) std::replace(u->operands.begin(), u->operands.end(), raw, old);
    load(bld, buf, old);
  }
};

}  // namespace

void makeSharedExplicit(Kernel& k, const Target&) {
  Lowering l{k, collectUsers(*k.body)};
  std::vector<Op*> todo;
  walk(*k.body, [&](Op& o) {
    if (o.kind == OpKind::Dot || o.kind == OpKind::ConvertLayout || o.kind == OpKind::Reshape ||
        o.kind == OpKind::Reduce || o.kind == OpKind::Scan || o.kind == OpKind::AtomicAdd)
      todo.push_back(&o);
  });
  for (Op* o : todo) {
    switch (o->kind) {
      case OpKind::Dot: l.dot(*o); break;
      case OpKind::ConvertLayout:
      case OpKind::Reshape: l.exchange(*o); break;
      case OpKind::Reduce:
      case OpKind::Scan: l.reduce(*o); break;
      default: l.atomic(*o); break;
    }
  }
  k.level = Level::Gpu;
}

}  // namespace tilecc::ir
