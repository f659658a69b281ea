#include "ir/Builder.h"
#include "ir/GridExpr.h"
#include "transform/Passes.h"

#include <algorithm>
#include <set>
#include <string>

namespace tilecc::ir {

// Each thread moves runs of consecutive elements along the most contiguous axis at once, up to
// 16 bytes; every fact that keeps a run shorter is recorded (the report lists them all).
Access accessOf(const Op& o, const std::map<const Value*, AxisInfo>& info, bool vectorAtomics, bool oldUsed) {
  const Value* p = o.operands[0];
  const AxisInfo& a = info.at(p);
  const int bytes = p->type.elem.pointeeType().bytes();
  const int rank = p->type.rank();
  // The fastest axis: the most contiguous (ties: the last).
  int f = rank - 1;
  for (int d = rank - 1; d >= 0; --d)
    if (a.contiguity[static_cast<std::size_t>(d)] > a.contiguity[static_cast<std::size_t>(f)]) f = d;
  const auto fd = static_cast<std::size_t>(f);
  const std::int64_t widest = 16 / bytes;
  std::int64_t vec = widest;
  std::vector<std::string> limits;
  auto limit = [&](std::int64_t v, const std::string& reason) {
    if (v >= widest) return;
    vec = std::min(vec, std::max<std::int64_t>(1, v));
    limits.push_back(reason);
  };
  const std::string along = " along axis " + std::to_string(f);
  limit(p->type.shape[fd], "the tile has " + std::to_string(p->type.shape[fd]) + " elements" + along);
  limit(a.contiguity[fd], "pointers are contiguous in runs of " + std::to_string(a.contiguity[fd]) + along);
  limit(a.divisibility[fd] / bytes, "the address is only known to be a multiple of " + std::to_string(a.divisibility[fd]) + " bytes");
  const std::size_t maskIndex = o.kind == OpKind::Load ? 1 : 2;
  if (o.operands.size() > maskIndex) {
    const AxisInfo& m = info.at(o.operands[maskIndex]);
    limit(m.constancy[fd], "the mask is constant in runs of " + std::to_string(m.constancy[fd]) + along);
  }
  if (o.kind == OpKind::AtomicAdd) {
    const ElemType t = p->type.elem.pointeeType();
    const bool halves = t == ElemType::of(Scalar::F16) || t == ElemType::of(Scalar::BF16);
    if (oldUsed) limit(1, "the old values are used: atomics return them one element at a time");
    // Pairs of 16-bit floats are one 32-bit atomic on every target (atomicAdd on __half2 and
    // __nv_bfloat162: red.global.add.noftz.f16x2 / .bf16x2, the latter emulated before sm_90).
    else if (halves) limit(2, "16-bit float atomics add pairs at most");
    else if (!vectorAtomics) limit(1, "atomics are issued one element at a time on this target");
    else if (t != ElemType::of(Scalar::F32)) limit(1, "vector atomics add f32 and pairs of f16 or bf16 only");
  }
  return Access{static_cast<int>(vec), f, limits};
}

void chooseAccessWidths(Kernel& k, const ParamFacts& facts, bool vectorAtomics) {
  const auto users = collectUsers(*k.body);
  auto accesses = [&](const std::map<const Value*, AxisInfo>& info) {
    std::vector<Access> a;
    walk(*k.body, [&](Op& o) {
      if (isTileAccess(o)) a.push_back(accessOf(o, info, vectorAtomics, o.result() && users.count(o.result())));
    });
    return a;
  };
  // Program-uniform dividends assumed non-negative, only in a specialised variant and only where
  // some access gets wider: integer parameters become conditions of the launcher (`k0 >= 0`),
  // block indices checks it makes over the grid (GridCheck); where they fail, it launches another
  // variant. Where nothing was assumed, this analysis is the plain one.
  std::set<const Value*> assumed;
  std::vector<Access> chosen = accesses(analyzeAxes(k, facts, &assumed, k.specialised));
  bool wider = false;
  if (!assumed.empty()) {
    const std::vector<Access> plain = accesses(analyzeAxes(k, facts));
    for (std::size_t i = 0; i < chosen.size(); ++i) wider |= chosen[i].vec > plain[i].vec;
    if (!wider) chosen = plain;
  }
  if (wider) {
    std::vector<const Value*> roots(assumed.begin(), assumed.end());
    std::sort(roots.begin(), roots.end(), [](const Value* a, const Value* b) { return a->id < b->id; });
    for (const Value* v : roots) {
      if (!v->def) {  // a parameter: the launcher's condition
        const std::pair<int, std::int64_t> sign{k.paramIndex(v), kNonNegative};
        if (std::find(k.assumed.begin(), k.assumed.end(), sign) == k.assumed.end()) k.assumed.push_back(sign);
        continue;
      }
      addGridCheck(k, *gridExprOf(k, v), !v->name.empty() ? v->name : "the dividend at line " + std::to_string(v->def->loc.line),
                   "vector accesses assume it (a negative dividend of / or % breaks the runs they move)", v->def->loc.line);
    }
  }
  std::size_t i = 0;
  walk(*k.body, [&](Op& o) {
    if (isTileAccess(o)) o.access = chosen[i++];
  });
}

}  // namespace tilecc::ir
