#include "analysis/Registers.h"

#include "ir/Layout.h"
#include "ir/OpTraits.h"

#include <algorithm>
#include <map>
#include <set>

namespace tilecc::ir {

namespace {

/// Tiles whose elements are all the same, from splats and constants through elementwise ops:
/// nvcc keeps one scalar for each (pipelined loops compute such offsets, `BK * ldb` as a tile).
/// Found in one walk in program order (operands are defined before their uses).
struct Uniform {
  std::set<const Value*> tiles;
  bool operator()(const Value* v) const { return !v->type.isTile() || tiles.count(v); }
  void visit(const Op& op) {
    bool u = op.kind == OpKind::Splat || op.kind == OpKind::Constant;
    if (!u && traits(op.kind).elementwise && op.regions.empty()) {
      u = true;
      for (const Value* o : op.operands) u = u && (*this)(o);
    }
    if (u)
      for (const Value* r : op.results) tiles.insert(r);
  }
};

/// Integer tiles affine in the tile indices with uniform coefficients (`start_n + arange<BN>()`,
/// `offs * stride`, their casts and broadcasts): each register holds a uniform base plus a
/// constant the layout fixes, so nvcc keeps the base and folds the constants into the
/// instructions that use them (attention's key offsets were counted as 64 registers at
/// 128x256, which ptxas never allocates).
struct Affine {
  std::set<const Value*> tiles;
  bool operator()(const Value* v) const { return tiles.count(v) > 0; }
  void visit(const Op& op, const Uniform& uniform) {
    const Value* r = op.result();
    if (!r || !r->type.isTile() || !r->type.elem.isInt()) return;
    auto either = [&](const Value* x) { return uniform(x) || (*this)(x); };
    bool a = false;
    switch (op.kind) {
      case OpKind::Arange: a = true; break;
      case OpKind::Broadcast:
      case OpKind::ExpandDims:
      case OpKind::Trans:
      case OpKind::Reshape:
      case OpKind::Hint: a = either(op.operands[0]); break;
      case OpKind::Convert: a = op.operands[0]->type.elem.isInt() && either(op.operands[0]); break;
      case OpKind::Binary:
        switch (op.binop) {
          case BinOp::Add:
          case BinOp::Sub: a = either(op.operands[0]) && either(op.operands[1]); break;
          case BinOp::Mul:
          case BinOp::Shl: a = (uniform(op.operands[0]) && either(op.operands[1])) || (either(op.operands[0]) && uniform(op.operands[1])); break;
          default: break;
        }
        break;
      default: break;
    }
    if (a) tiles.insert(r);
  }
};

bool holdsRegisters(const Value* v, const Uniform& uniform, const Affine& affine) {
  if (!v->type.isTile() || v->layout < 0) return false;
  if (uniform(v) || affine(v)) return false;
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

/// The operand whose registers the op's result may take when the operand dies at the op: the
/// accumulator of a tensor-core op (updated in place), the value a wgmma wait releases, or an
/// operand of an elementwise op held like its result in as many registers or more (a narrowing
/// conversion, f32 to f16, packs two results into the registers of two consumed operands).
/// -1 when none.
int inPlaceOperand(const Kernel& k, const Op& op, const Uniform& uniform, const Affine& affine) {
  if (op.results.size() != 1) return -1;
  const Value* r = op.results[0];
  switch (op.kind) {
    case OpKind::Dot:
    case OpKind::Mma:
    case OpKind::Wgmma: return op.operands.size() == 3 ? 2 : -1;
    case OpKind::WgmmaWait: return op.operands.empty() ? -1 : 0;
    default: break;
  }
  if (!traits(op.kind).elementwise || !holdsRegisters(r, uniform, affine)) return -1;
  for (std::size_t i = 0; i < op.operands.size(); ++i) {
    const Value* v = op.operands[i];
    if (holdsRegisters(v, uniform, affine) && v->layout == r->layout && v->type.shape == r->type.shape &&
        registersOf(k, v) >= registersOf(k, r))
      return static_cast<int>(i);
  }
  return -1;
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
  Uniform uniform;
  Affine affine;
  for (const Op* op : seq) {
    uniform.visit(*op);
    affine.visit(*op, uniform);
  }

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
      if (holdsRegisters(r, uniform, affine) && life.emplace(r, std::make_pair(end, end)).second) order.push_back(r);
    for (const auto& reg : op->regions)
      for (const Value* a : reg->args)
        if (holdsRegisters(a, uniform, affine) && life.emplace(a, std::make_pair(i, i)).second) order.push_back(a);
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

  // An elementwise intermediate whose users are elementwise ops of its layout, with nothing but
  // elementwise ops from its definition to its last use, is part of one expression computed
  // element by element: it holds no tile of registers of its own (a leaky ReLU's
  // `where(x >= 0, x, 0.01f * x)` was counted as 0.01f * x beside x, 256 registers at 128x256,
  // where ptxas allocates 168 and spills nothing). Ops in between that hold no registers (the
  // splat of a scalar operand, views of tiles) do not separate the expression: GEMM's
  // `alpha * acc + beta * c` was counted as 320 registers at 128x256 (a spill warning), where
  // ptxas allocates 214-240 and spills nothing.
  std::map<const Value*, std::vector<int>> usedAt;
  for (int i = 0; i < static_cast<int>(seq.size()); ++i)
    for (const Value* v : seq[i]->operands)
      if (life.count(v)) usedAt[v].push_back(i);
  auto fused = [&](const Op& op) {
    if (!op.regions.empty()) return false;
    if (traits(op.kind).elementwise) return true;
    return traits(op.kind).pure && !op.results.empty() &&
           std::none_of(op.results.begin(), op.results.end(), [&](const Value* r) { return holdsRegisters(r, uniform, affine); });
  };
  for (auto it = life.begin(); it != life.end();) {
    const Value* v = it->first;
    // A result nothing reads (an atomic's old values, where only its update matters) is never
    // held: split-K's atomic_add of its accumulator was counted as 128 registers, ptxas gives 90.
    if (v->def && !usedAt.count(v)) {
      order.erase(std::find(order.begin(), order.end(), v));
      it = life.erase(it);
      continue;
    }
    bool transient = v->def && fused(*v->def) && usedAt.count(v);
    for (int i = it->second.first + 1; transient && i <= it->second.second; ++i) transient = fused(*seq[i]);
    if (transient)
      for (const int i : usedAt[v]) {
        const Value* r = seq[i]->result();
        // A user that holds no registers (an address or a mask, counted in its operands) keeps
        // the operand's tile: `x + offs % n` needs the offsets.
        transient = transient && seq[i]->parent == v->def->parent && r && r->layout == v->layout && r->type.shape == v->type.shape &&
                    holdsRegisters(r, uniform, affine);
      }
    if (transient) {
      order.erase(std::find(order.begin(), order.end(), v));
      it = life.erase(it);
    } else {
      ++it;
    }
  }

  // The two regions of an if are alternatives: a value from before the if that dies inside it
  // lives in each region only up to its last use there (version-masks puts the select's user
  // in both regions: the tile it updates was counted beside its result in the first region).
  std::map<const Value*, std::vector<std::pair<int, int>>> ranges;
  for (const auto& [v, l] : life) ranges[v] = {l};
  for (const Op* op : seq) {
    if (op->kind != OpKind::If || op->regions.size() != 2 || op->regions[0]->ops.empty() || op->regions[1]->ops.empty()) continue;
    const auto [s, e] = span.at(op);
    const int thenEnd = span.at(op->regions[0]->ops.back().get()).second;
    const int elseBegin = span.at(op->regions[1]->ops.front().get()).first;
    for (auto& [v, r] : ranges) {
      // The piece of v's range that enters this if and ends in it (an if nested in another's
      // region: v already has a piece per outer region).
      const auto piece = std::find_if(r.begin(), r.end(), [&](const auto& p) { return p.first < s && p.second > s && p.second <= e; });
      if (piece == r.end()) continue;
      int lastThen = -1, lastElse = -1;
      for (const int i : usedAt[v]) {
        if (i > s && i <= thenEnd) lastThen = std::max(lastThen, i);
        if (i >= elseBegin && i <= e) lastElse = std::max(lastElse, i);
      }
      const int end = piece->second;
      piece->second = s;
      if (lastThen >= 0) r.push_back({s + 1, std::min(lastThen, end)});
      if (lastElse >= 0) r.push_back({elseBegin, std::min(lastElse, end)});
    }
  }

  // A result that takes over a dying operand's registers: the two are not live at once. So do a
  // loop's carried values and their initial values (causal attention's second key loop starts
  // from the first one's accumulator), a loop's results and the values its last iteration
  // yields (the results are defined at the yield, the loop's end), and an if's results and
  // what its branch yields (version-masks' if around a select: the score tile counted twice
  // made attention's 128x256 tile look 328 registers, which ptxas fits in 255).
  auto handOver = [&](const Value* v, int i) {
    auto it = ranges.find(v);
    if (it == ranges.end()) return;
    for (auto& [from, to] : it->second)
      if (to == i && from <= i) to = i - 1;  // an alternative region's range may start at the use
  };
  for (int i = 0; i < static_cast<int>(seq.size()); ++i) {
    const Op& op = *seq[i];
    if (op.kind == OpKind::Yield && op.parent && op.parent->parent &&
        (op.parent->parent->kind == OpKind::For || op.parent->parent->kind == OpKind::If))
      for (const Value* v : op.operands) handOver(v, i);
    else if (op.kind == OpKind::For)
      for (std::size_t j = 3; j < op.operands.size(); ++j) handOver(op.operands[j], i);
    else if (const int o = inPlaceOperand(k, op, uniform, affine); o >= 0)
      handOver(op.operands[o], i);
  }

  // Sweep: registers live at each op.
  std::vector<long long> delta(seq.size() + 1, 0);
  for (const auto& [v, rs] : ranges)
    for (const auto& [from, to] : rs) {
      delta[from] += registersOf(k, v);
      delta[to + 1] -= registersOf(k, v);
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
    for (const auto& [from, to] : ranges.at(v))
      if (from <= peakAt && peakAt <= to) e.largest.push_back({nameOf(v), registersOf(k, v)});
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
