// Consumer warp groups take turns at the tensor cores (sm_90a; FA3's "ping-pong" schedule).
//
// In a warp-specialised loop whose wgmma results are computed on before the next batch (the
// online softmax between attention's two dots), every consumer warp group would otherwise issue
// its batches at about the same time as the others, wait for them at the same time and then
// leave the tensor cores idle while all of them compute the softmax. With turns, each batch is
// issued only once the previous group has issued its own, so the groups drift half a period
// apart and one group's softmax runs while the other's wgmma batch does:
//
//   if (warp group == last) turn_pass            the first turn is group 0's
//   for (...) {
//     ...
//     turn_wait   wgmma ... commit   turn_pass   (each run of wgmma issued without a wait between)
//     wgmma_wait; softmax ...
//   }
//   if (warp group == 0) turn_wait                takes the last group's final pass
//
// turn_wait is `bar.sync id + g, 256` (group g waits for its turn), turn_pass is
// `bar.arrive id + (g + 1) % G, 256` (it hands the turn to the next group): every named barrier
// joins one waiting and one passing group. Each barrier gets as many passes as waits, so none is
// left half-arrived at the end, also for trip counts of 0 and 1.
//
// Applies to the warp-specialised loops of a kernel with at least two consumer warp groups where
// a wgmma result is computed on inside the loop (a GEMM's main loop, which only accumulates,
// gains nothing), the loop body has no barrier (one would put the groups back in step), and two
// wgmma are issued together (overlapDots): measured, turns around single dots lost 0-13%.
//
// Not in the translator's pipeline since 2026-11-28: on the H200, every warp-specialised attention
// kernel measured ran faster without turns (the tutorial ports and the sample, D = 64 and 128,
// 64- and 128-key blocks, causal or not, persistent or not: +1.4% to +10%; README, thirty-second
// run). The overlapped dots already keep the tensor cores busy under each group's softmax, and the
// named barriers only tie the groups together. tilecc-opt --pass=take-turns still runs it.
#include "ir/Builder.h"
#include "transform/Passes.h"
#include "transform/WarpRoles.h"

#include <algorithm>

namespace tilecc::ir {

namespace {

// Whether the loop body works on a wgmma result before its end (besides feeding wgmma or the
// loop's next iteration), and has no barrier and no wgmma inside nested regions.
bool worthTurns(const Block& body) {
  bool computes = false, ok = true;
  for (const auto& op : body.ops) {
    for (const auto& r : op->regions)
      walk(static_cast<const Block&>(*r), [&](const Op& x) { ok = ok && x.kind != OpKind::Wgmma && x.kind != OpKind::Barrier; });
    if (op->kind == OpKind::Barrier) ok = false;
    if (op->kind == OpKind::Yield || op->kind == OpKind::Wgmma || op->kind == OpKind::WgmmaWait) continue;
    for (const Value* v : op->operands)
      if (v->def && v->def->kind == OpKind::WgmmaWait && v->def->parent == &body) computes = true;
  }
  return ok && computes;
}

int warpGroupRegions(const Kernel& k) {
  int n = 0;
  walk(static_cast<const Block&>(*k.body), [&](const Op& o) {
    if (o.kind == OpKind::WarpGroup) n += static_cast<int>(o.regions.size());
  });
  return n;
}

}  // namespace

bool takeTurns(Kernel& k, const Target& t) {
  const int groups = k.numWarps / 4;
  if (!t.wgmma || k.producerWarps == 0 || groups < 2) return false;
  // The loops in turn (causal attention's two key loops): one chain of turns runs through all
  // of them, so no group passes twice without a wait between.
  std::vector<Op*> loops;
  for (Op* l : consumerDotLoops(k))
    if (worthTurns(*l->regions[0])) loops.push_back(l);
  if (loops.empty()) return false;
  Block& outer = *loops[0]->parent;
  if (std::any_of(loops.begin(), loops.end(), [&](const Op* l) { return l->parent != &outer; })) return false;
  const Loc loc = loops[0]->loc;
  // Each group region the printer numbers gets a named barrier (1, 2, ...); the turns' barriers
  // follow them (two regions are added below).
  const int first = 1 + warpGroupRegions(k) + 2;
  if (first + groups > 16) return false;  // 16 named barriers per CTA
  auto turn = [&](Builder& b, Sync s) {
    Op* bar = b.create(OpKind::Barrier, {}, {});
    bar->sync = s;
    bar->barrierId = first;
    bar->barrierThreads = 2 * 128;
    bar->count = groups;
    bar->note = s == Sync::TurnWait ? "this warp group's turn at the tensor cores" : "the next warp group's turn";
  };
  // Around each run of wgmma a body issues without waiting in between (overlapDots issues two
  // together).
  std::vector<std::pair<Op*, Op*>> runs;
  for (Op* loop : loops) {
    bool open = false;
    for (auto& op : loop->regions[0]->ops) {
      if (op->kind == OpKind::Wgmma) {
        if (!open) runs.push_back({op.get(), op.get()});
        runs.back().second = op.get();
        open = true;
      } else if (op->kind == OpKind::WgmmaWait) {
        open = false;
      }
    }
  }
  // Turns around single dots only put the groups' softmax and wgmma in step (measured: 0-13%
  // slower on the attention sample); with two dots issued together (overlapDots) one group's
  // softmax runs under the other's two.
  if (std::none_of(runs.begin(), runs.end(), [](const auto& r) { return r.first != r.second; })) return false;
  for (auto [from, to] : runs) {
    Builder b{k, from->parent, loc, "turn", -1};
    b.setInsertionBefore(*from);
    turn(b, Sync::TurnWait);
    b.setInsertionAfter(*to);
    turn(b, Sync::TurnPass);
  }
  // The first turn: the last group passes it to group 0 before the first loop; after the last,
  // group 0 takes the last group's final pass.
  auto onlyGroup = [&](int g, Sync s, Op& loop, bool after) {
    Builder b{k, &outer, loc, "turn", -1};
    if (after) b.setInsertionAfter(loop);
    else b.setInsertionBefore(loop);
    Op* only = b.create(OpKind::WarpGroup, {}, {});
    only->firstWarp = 4 * g;
    only->numWarps = 4;
    Builder r{k, b.addRegion(only), loc, "turn", -1};
    turn(r, s);
  };
  onlyGroup(groups - 1, Sync::TurnPass, *loops.front(), false);
  onlyGroup(0, Sync::TurnWait, *loops.back(), true);
  return true;
}

}  // namespace tilecc::ir
