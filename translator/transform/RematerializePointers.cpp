// A tile of pointers that a loop carries and advances by a uniform step (`a_ptrs += BLOCK_K *
// stride_ak`) is one 64-bit register pair per address for the whole loop, because nvcc cannot
// see that the carried values are base + terms + k·step. Where a loop reads such a tile one
// element at a time (a general variant, no alignment proven), a 128x64 operand at 8 warps is 32
// pointers per thread: Triton tutorial 03's GEMM at 128x256 held 96 of them beside its 128
// accumulator registers, and ptxas spilled 7.3 KB per thread.
//
// Such a tile is almost always an outer sum, base + rows·stride + cols·stride, the terms
// broadcast from tiles of lower rank. The loop then carries the steps' sum as one 64-bit
// scalar and rebuilds the addresses each iteration from the terms:
//
//   for (...; a_ptrs = init)  { load(a_ptrs); a_ptrs += step }
//   →  for (...; a_offset = 0) { load(base + narrow + a_offset + wide); a_offset += step }
//
// with the narrowest term (the fewest values per thread) joined to the offset first: nvcc then
// computes those few sums per iteration and one add per address, and only the terms (a few
// 32-bit registers) stay live across the loop, not the addresses. Elementwise, the new address
// is the old one wherever the old terms' 32-bit sum did not wrap (an address that did pointed
// outside any tensor).
#include "ir/Builder.h"
#include "ir/Clone.h"
#include "ir/Layout.h"
#include "transform/Passes.h"

#include <algorithm>

namespace tilecc::ir {

namespace {

// At or above this many distinct addresses per thread, the carried tile is rebuilt.
constexpr int kMinAddresses = 16;

struct Term {
  Value* v = nullptr;
  bool view = false;  // v is a broadcast or splat (cloned into the body); else a tile of lower rank (broadcast there)
};
struct Terms {
  Value* base = nullptr;  // the scalar pointer
  std::vector<Term> terms;
};

// Integer tile `t` as a sum of terms, through adds; `lower`: under a broadcast of the pointers
// (b + col(rk) * ldb, then + row(rn)), where any value of the lower rank is a term.
bool integerTerms(Value* t, Terms& out, bool lower) {
  const Op* d = t->def;
  if (d && d->kind == OpKind::Binary && d->binop == BinOp::Add)
    return integerTerms(d->operands[0], out, lower) && integerTerms(d->operands[1], out, lower);
  if (d && (d->kind == OpKind::Broadcast || d->kind == OpKind::Splat)) {
    out.terms.push_back({t, true});
    return true;
  }
  if (!lower) return false;
  out.terms.push_back({t, false});
  return true;
}

// Pointer tile `p` as base + Σ terms, through addptr, broadcasts of pointer tiles and the
// splat of the base.
bool pointerTerms(Value* p, Terms& out, bool lower = false) {
  const Op* d = p->def;
  if (!d) return false;
  if (d->kind == OpKind::AddPtr) return pointerTerms(d->operands[0], out, lower) && integerTerms(d->operands[1], out, lower);
  if (d->kind == OpKind::Broadcast) return pointerTerms(d->operands[0], out, true);
  if (d->kind == OpKind::Splat && !d->operands[0]->type.isTile() && !out.base) {
    out.base = d->operands[0];
    return true;
  }
  return false;
}

// Registers per thread a term holds across the loop: its source's (0 for a splat).
int heldRegisters(const Kernel& k, const Term& t) {
  const Value* s = t.view ? t.v->def->operands[0] : t.v;
  if (!s->type.isTile() || s->layout < 0) return 0;
  return numRegs(k.layoutOf(s), s->type.shape) * std::max(1, s->type.elem.bytes() / 4);
}

// The scalar a splat (possibly broadcast) of which `v` is, or null.
Value* uniformScalar(Value* v) {
  while (v->def && (v->def->kind == OpKind::Broadcast || v->def->kind == OpKind::ExpandDims)) v = v->def->operands[0];
  return splatScalar(v);
}

// Addresses per thread the loop's accesses through `a` compute (elements / vector width).
int addressesPerThread(const Kernel& k, const Value* a, const std::vector<Op*>& accesses) {
  const int elems = numRegs(k.layoutOf(a), a->type.shape);
  int most = 0;
  for (const Op* u : accesses) most = std::max(most, elems / std::max(1, u->access.vec));
  return most;
}

void rematerialize(Kernel& k, Op& loop, const std::map<const Value*, std::vector<Op*>>& users) {
  Block& body = *loop.regions[0];
  Op* y = yieldOf(body);
  if (!y) return;
  const std::size_t carried = loop.results.size();
  for (std::size_t j = 0; j < carried; ++j) {
    Value* a = body.args[j + 1];
    if (!a->type.isTile() || !a->type.elem.isPtr() || a->layout < 0) continue;
    // Advanced by a uniform step in the body; the loop's result unread.
    Value* next = y->operands[j];
    if (!next->def || next->def->kind != OpKind::AddPtr || next->def->operands[0] != a || next->def->parent != &body) continue;
    Value* step = uniformScalar(next->def->operands[1]);
    if (!step || (users.count(loop.results[j]) && !users.at(loop.results[j]).empty())) continue;
    // Read only as the address of loads, stores and atomics (besides its advance).
    std::vector<Op*> accesses;
    bool plain = true;
    for (Op* u : users.count(a) ? users.at(a) : std::vector<Op*>{}) {
      if (u == next->def) continue;
      const bool access = (u->kind == OpKind::Load || u->kind == OpKind::Store || u->kind == OpKind::AtomicAdd) && u->operands[0] == a &&
                          std::count(u->operands.begin(), u->operands.end(), a) == 1;
      plain = plain && access;
      accesses.push_back(u);
    }
    const int addresses = accesses.empty() ? 0 : addressesPerThread(k, a, accesses);
    if (!plain || addresses < kMinAddresses) continue;
    // Its initial value an outer sum whose terms hold at most half the addresses' registers
    // (two per address).
    Value* init = loop.operands[j + 3];
    Terms terms;
    if (!pointerTerms(init, terms) || !terms.base || terms.terms.empty()) continue;
    int held = 0;
    bool sameLayout = true;  // a term of lower rank is broadcast in the pointers' layout
    for (const Term& t : terms.terms) {
      held += heldRegisters(k, t);
      sameLayout = sameLayout && (t.view || t.v->layout == a->layout);
    }
    if (!sameLayout || held > addresses) continue;
    std::stable_sort(terms.terms.begin(), terms.terms.end(),
                     [&](const Term& x, const Term& z) { return heldRegisters(k, x) < heldRegisters(k, z); });

    const std::string name = a->name.empty() ? a->hint : a->name;
    Builder pre{k, loop.parent, loop.loc, name, -1};
    pre.setInsertionBefore(loop);
    const ElemType i64 = ElemType::of(Scalar::I64);
    Value* offset = addCarried(k, loop, pre.intConst(0, i64), name + "_offset");
    // The addresses, at the top of the body: base + narrowest term + offset + the others.
    Builder top{k, &body, loop.loc, name, 0};
    ValueMap map;
    // A term at the pointers' full shape: a clone of its view, or a broadcast of the lower-rank
    // tile (a view of a view under a broadcast of the pointers takes the full shape too).
    auto full = [&](const Term& t) {
      Value* c = t.view ? cloneOp(top, *t.v->def, map)->result() : top.one(OpKind::Broadcast, {t.v}, a->type.withElem(t.v->type.elem));
      c->type = a->type.withElem(t.v->type.elem);
      c->layout = a->layout;
      return c;
    };
    auto add = [&](Value* p, Value* off) {
      Value* r = top.one(OpKind::AddPtr, {p, off}, a->type);
      r->layout = a->layout;
      return r;
    };
    Value* p = top.one(OpKind::Splat, {terms.base}, a->type);
    p->layout = a->layout;
    p = add(p, full(terms.terms[0]));
    Value* splat = top.one(OpKind::Splat, {offset}, a->type.withElem(i64));
    splat->layout = a->layout;
    p = add(p, splat);
    for (std::size_t t = 1; t < terms.terms.size(); ++t) p = add(p, full(terms.terms[t]));
    p->name = a->name;
    for (Op* u : accesses) u->operands[0] = p;
    // The offset advances by the step before the yield (the step may be computed in the body).
    Builder end{k, &body, y->loc, name, -1};
    end.setInsertionBefore(*y);
    Value* s = step->type.elem == i64 ? step : end.one(OpKind::Convert, {step}, Type::scalar(i64));
    y->operands.back() = end.binary(BinOp::Add, offset, s, i64);
  }
}

}  // namespace

void rematerializePointers(Kernel& k) {
  std::vector<Op*> loops;
  walk(*k.body, [&](Op& o) {
    if (o.kind == OpKind::For) loops.push_back(&o);
  });
  for (Op* l : loops) rematerialize(k, *l, collectUsers(*k.body));
}

}  // namespace tilecc::ir
