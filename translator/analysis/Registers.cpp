#include "analysis/Registers.h"

#include "ir/Layout.h"

#include <algorithm>
#include <map>

namespace tilecc::ir {

namespace {

bool holdsRegisters(const Value* v) {
  if (!v->type.isTile() || v->layout < 0) return false;
  // Pointer and mask tiles are affine in the thread's registers: nvcc folds them into address
  // arithmetic and predicates rather than holding an array of them.
  if (v->type.elem.isPtr() || v->type.elem.isBool()) return false;
  if (!v->def) return true;  // a loop's carried tile
  switch (v->def->kind) {
    case OpKind::Splat:
    case OpKind::Arange:
    case OpKind::Broadcast:
    case OpKind::ExpandDims:
    case OpKind::Trans:
    case OpKind::Reshape:
    case OpKind::Hint:
    case OpKind::Constant: return false;
    default: return true;
  }
}

int registersOf(const Kernel& k, const Value* v) {
  const int elems = numRegs(k.layoutOf(v), v->type.shape);
  return (elems * v->type.elem.bytes() + 3) / 4;
}

std::string nameOf(const Value* v) { return !v->name.empty() ? v->name : !v->hint.empty() ? v->hint : "%" + std::to_string(v->id); }

}  // namespace

RegisterEstimate estimateRegisters(const Kernel& k) {
  // Ops in program order; each op's span [first, last] covers its regions.
  std::vector<const Op*> seq;
  std::map<const Op*, std::pair<int, int>> span;
  auto number = [&](auto&& self, const Block& b) -> void {
    for (const auto& op : b.ops) {
      const int first = static_cast<int>(seq.size());
      seq.push_back(op.get());
      for (const auto& r : op->regions) self(self, *r);
      span[op.get()] = {first, static_cast<int>(seq.size()) - 1};
    }
  };
  number(number, *k.body);

  // Lifetimes [def, lastUse]. A use inside a loop of a value from outside the loop keeps the
  // value live to the loop's end (the next iteration reads it again). A loop's carried tile
  // lives from the loop's start to its last use in the body, the value yielded for it from its
  // definition to the yield (they take turns in the same registers); the results of a loop or
  // an if are defined where it ends.
  std::map<const Value*, std::pair<int, int>> life;
  std::vector<const Value*> order;  // by definition, for a deterministic report
  auto defIndex = [&](const Value* v) {
    if (v->def) return v->def->regions.empty() ? span.at(v->def).first : span.at(v->def).second;
    if (v->owner && v->owner->parent) return span.at(v->owner->parent).first;
    return 0;
  };
  for (int i = 0; i < static_cast<int>(seq.size()); ++i) {
    const Op* op = seq[i];
    const int end = span.at(op).second;
    for (const Value* r : op->results)
      if (holdsRegisters(r) && life.emplace(r, std::make_pair(end, end)).second) order.push_back(r);
    for (const auto& reg : op->regions)
      for (const Value* a : reg->args)
        if (holdsRegisters(a) && life.emplace(a, std::make_pair(i, i)).second) order.push_back(a);
    for (const Value* v : op->operands) {
      auto it = life.find(v);
      if (it == life.end()) continue;
      int use = i;
      const int def = defIndex(v);
      for (const Block* b = op->parent; b && b->parent; b = b->parent->parent)
        if (b->parent->kind == OpKind::For && span.at(b->parent).first > def) use = std::max(use, span.at(b->parent).second);
      it->second.second = std::max(it->second.second, use);
    }
  }

  // Sweep: registers live at each op.
  std::vector<long long> delta(seq.size() + 1, 0);
  for (const auto& [v, l] : life) {
    delta[l.first] += registersOf(k, v);
    delta[l.second + 1] -= registersOf(k, v);
  }
  RegisterEstimate e;
  long long live = 0, peak = -1;
  int peakAt = 0;
  for (std::size_t i = 0; i < seq.size(); ++i) {
    live += delta[i];
    if (live > peak) peak = live, peakAt = static_cast<int>(i);
  }
  if (seq.empty() || peak <= 0) return e;
  e.registers = static_cast<int>(std::min<long long>(peak, 1LL << 30));
  e.peakLine = seq[peakAt]->loc.line;
  for (const Value* v : order)
    if (life.at(v).first <= peakAt && peakAt <= life.at(v).second) e.largest.push_back({nameOf(v), registersOf(k, v)});
  std::stable_sort(e.largest.begin(), e.largest.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (e.largest.size() > 3) e.largest.resize(3);
  return e;
}

std::string describe(const RegisterEstimate& e) {
  std::string s = "about " + std::to_string(e.registers) + " registers per thread for tiles";
  if (e.largest.empty()) return s;
  s += " (at line " + std::to_string(e.peakLine) + ":";
  for (std::size_t i = 0; i < e.largest.size(); ++i)
    s += (i ? ", " : " ") + e.largest[i].first + " " + std::to_string(e.largest[i].second);
  return s + ")";
}

}  // namespace tilecc::ir
