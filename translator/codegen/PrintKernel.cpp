// One kernel variant: the header comment (warps, layouts, accesses, shared-memory plan,
// barriers), the __global__ function, and the report (--emit=report), all from the IR.
#include "analysis/Registers.h"
#include "codegen/KernelPrinter.h"
#include "ir/GridExpr.h"

#include "ir/OpTraits.h"
#include "ir/TaskMapping.h"
#include "transform/WarpRoles.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace tilecc::codegen {

// overlapDots's mark: a loop body issuing two wgmma without a wait between them.
bool KernelPrinter::overlapsDots() const {
  bool found = false;
  walk(static_cast<const Block&>(*k_.body), [&](const Op& o) {
    if (o.kind != OpKind::For) return;
    int issued = 0;
    for (const auto& x : o.regions[0]->ops) {
      if (x->kind == OpKind::Wgmma) found = found || ++issued == 2;
      else if (x->kind == OpKind::WgmmaWait) issued = 0;
    }
  });
  return found;
}

std::string KernelPrinter::variantConditionText() {
  std::string s;
  for (std::size_t i = 0; i < k_.assumed.size(); ++i) {
    const auto [index, value] = k_.assumed[i];
    s += (i ? ", " : "") + k_.paramInfo[static_cast<std::size_t>(index)].name +
         (value == kEqualsOne     ? std::string(" == 1")
          : value == kNonNegative ? std::string(" >= 0")
          : k_.params[static_cast<std::size_t>(index)]->type.elem.isPtr() ? " is aligned to " + std::to_string(value)
                                                                            : " is a multiple of " + std::to_string(value));
  }
  const std::vector<GridCheck> checks = distinctGridChecks(k_.gridChecks);
  for (std::size_t i = 0; i < checks.size(); ++i)
    s += (s.empty() ? "" : i ? ", " : " and ") + (i ? std::string() : std::string("in every program of the grid ")) + checks[i].what;
  return s.empty() ? "always (every fact it assumes is promised)" : s;
}

namespace {

// Where shared memory cut the stages, as the header and report say it ("1 stage" copies nothing ahead).
std::string stagesCut(const Kernel& k) {
  return (k.numStages == 1 ? std::string("1 stage (nothing copied ahead)") : std::to_string(k.numStages) + " stages") + " of the " +
         std::to_string(k.stagesAsked) + " num_stages asks for";
}

std::string at(const Op& o) { return " at line " + std::to_string(o.loc.line); }

// The registers per thread ptxas allows where `programs` programs of `threads` threads must fit
// on an SM (64K registers, allocated in steps of 8 per thread; 255 at most).
int registerCap(int programs, int threads) { return std::min(255, 65536 / (programs * threads) / 8 * 8); }

// A wait on a loop-invariant operand's mbarrier (one barrier: pipelineLoops) with a parity the
// enclosing loop carries: the operand is copied once per iteration of that loop.
bool waitsPerIteration(const Op& o) {
  const Value* bar = o.kind == OpKind::MBarrierWait ? o.operands[0] : nullptr;
  return bar && bar->type.stages == 1 && !(o.operands[2]->def && o.operands[2]->def->kind == OpKind::Constant);
}

// What a buffer is for, from the ops that use it (directly or through a slot of a ring).
std::string purpose(const Value* buf, const std::map<const Value*, std::vector<const Op*>>& users) {
  std::vector<const Op*> us;
  auto add = [&](const Value* v, auto& self) -> void {
    auto it = users.find(v);
    if (it == users.end()) return;
    for (const Op* u : it->second) {
      if (u->kind == OpKind::SharedSlot) self(u->result(), self);
      else us.push_back(u);
    }
  };
  add(buf, add);
  if (buf->type.kind == TypeKind::MBarrier) {
    const bool once = buf->type.stages == 1;  // a loop-invariant operand's (pipelineLoops)
    const bool perIteration = std::any_of(us.begin(), us.end(), [](const Op* u) { return waitsPerIteration(*u); });
    if (std::any_of(us.begin(), us.end(), [](const Op* u) { return u->kind == OpKind::MBarrierArrive; }))
      return once ? "every consumer warp is done reading the loop-invariant operand (the producer waits before its next copy)"
                  : "one per ring slot: every consumer warp is done reading it (the producer waits with the parity of the slot's previous use)";
    if (once) {
      for (const Op* u : us)
        if (u->kind == OpKind::TmaLoad)
          return "the TMA box" + at(*u) + " has landed (" +
                 (perIteration ? "filled once per iteration of the loop around: waited on with that iteration's parity)"
                               : "filled once: waited on with parity 0)");
    }
    return "one per ring slot: its TMA boxes have landed (waited on with the parity of the slot's use)";
  }
  for (const Op* u : us) {
    if (u->kind == OpKind::TmaLoad)
      return (u->axis > 0 ? "pixels copied by TMA in im2col mode" : "box copied by TMA") + at(*u);
    if (u->kind == OpKind::TmaStore) return "tile stored by TMA" + at(*u);
    if (u->kind == OpKind::Reduce) return std::string("partial results of the ") + name(u->reduce) + " across warps" + at(*u);
    if (u->kind == OpKind::AsyncCopy) {
      // The loop's copies (not the prologue's) into the slot ahead: issued behind the dot.
      const bool behind = std::any_of(us.begin(), us.end(), [](const Op* c) {
        const Value* slot = c->kind == OpKind::AsyncCopy ? c->operands[1] : nullptr;
        return slot && slot->def && slot->def->kind == OpKind::SharedSlot && slot->def->count == kSlotAhead;
      });
      return std::string("ring filled by cp.async, num_stages - 1 iterations ahead") + (behind ? ", issued behind the iteration's dot" : "") +
             " (load" + at(*u) + ")" + (buf->def && !buf->def->note.empty() ? "; " + buf->def->note : "");
    }
  }
  for (const Op* u : us)
    if (u->kind == OpKind::Mma || u->kind == OpKind::Wgmma) {
      const bool isA = u->operands[0] == buf || (u->operands[0]->def && u->operands[0]->def->kind == OpKind::SharedSlot &&
                                                 u->operands[0]->def->operands[0] == buf);
      return std::string(isA ? "A" : "B") + " operand of the dot" + at(*u);
    }
  for (const Op* u : us)
    if (u->kind == OpKind::SharedLoad) {
      const Op* st = nullptr;
      for (const Op* w : us)
        if (w->kind == OpKind::SharedStore) st = w;
      if (st && st->operands[0]->def && st->operands[0]->def->kind == OpKind::AtomicAdd)
        return "old values of the atomic_add" + at(*st->operands[0]->def) + " for every copy";
      if (u->result()->type.shape != buf->type.shape) return "reshape" + at(*u);
      if (auto it = users.find(u->result()); it != users.end())
        for (const Op* w : it->second)
          if (w->kind == OpKind::Store)  // a staged epilogue (AssignLayouts)
            return "layout conversion for the store" + at(*w) + ", read back " +
                   std::to_string(u->access.vec * u->result()->type.elem.bytes()) + " bytes per access";
      return "layout conversion" + at(*u);
    }
  return "scratch";
}

}  // namespace

int KernelPrinter::ringLoops() const {
  std::map<const Value*, int> loops;  // "full" barriers → dot loops waiting on them
  walk(static_cast<const Block&>(*k_.body), [&](const Op& o) {
    if (o.kind != OpKind::For) return;
    const auto& ops = o.regions[0]->ops;
    if (std::none_of(ops.begin(), ops.end(), [](const auto& x) { return x->kind == OpKind::Wgmma; })) return;
    for (const auto& x : ops)
      if (x->kind == OpKind::MBarrierWait) {
        ++loops[x->operands[0]];
        break;
      }
  });
  int most = 0;
  for (const auto& [bar, n] : loops) most = std::max(most, n);
  return most;
}

int KernelPrinter::ringCarrier() const {
  if (k_.persistent) return 0;
  const Op* loop = ir::consumerDotLoop(const_cast<Kernel&>(k_));  // the consumers' ring loop
  const Op* outer = loop ? loop->parent->parent : nullptr;
  return outer && outer->kind == OpKind::For ? static_cast<int>(outer->loc.line) : 0;
}

bool KernelPrinter::run(CudaKernel& out) {
  const bool overlapped = overlapsDots(), turns = ir::takesTurns(k_);  // for the header and the report
  const int ringLoops = this->ringLoops(), carrier = ringCarrier();
  // With a loop around the ring loop: the line of a loop-invariant operand's copy made once per
  // iteration of that loop (its barrier waited on per iteration), else 0.
  unsigned perIteration = 0;
  if (carrier) {
    std::set<const Value*> bars;
    walk(static_cast<const Block&>(*k_.body), [&](const Op& o) {
      if (waitsPerIteration(o)) bars.insert(o.operands[0]);
    });
    walk(static_cast<const Block&>(*k_.body), [&](const Op& o) {
      if (o.kind == OpKind::TmaLoad && bars.count(o.operands[2])) perIteration = o.loc.line;
    });
  }
  const int threads = (k_.numWarps + k_.producerWarps) * 32;
  std::string params;
  for (std::size_t i = 0; i < k_.params.size(); ++i) {
    const Value* p = k_.params[i];
    params += (i ? ", " : "") +
              (p->type.kind == TypeKind::TensorDesc ? "const __grid_constant__ CUtensorMap " : type(p->type.elem) + " ") + names_.of(p);
  }
  if (k_.persistent) params += ", const dim3 tilecc_grid";
  try {
    block(*k_.body);
  } catch (const Unsupported&) {
    return false;
  }
  // Each access once (a pipelined load is issued by the prologue and the loop alike).
  std::vector<std::string> accesses;
  for (const auto& a : accesses_)
    if (std::find(accesses.begin(), accesses.end(), a) == accesses.end()) accesses.push_back(a);
  // The shared-memory plan, by offset.
  std::vector<std::pair<int, std::string>> plan;
  std::vector<std::pair<std::int64_t, std::int64_t>> extents;  // [begin, end) of each buffer
  walk(*k_.body, [&](const Op& o) {
    if (o.kind != OpKind::LocalAlloc) return;
    const Value* b = o.result();
    extents.push_back({o.offset, o.offset + b->type.sharedBytes()});
    plan.push_back({o.offset, names_.of(b) + " at " + std::to_string(o.offset) + ", " + std::to_string(b->type.sharedBytes()) +
                                  " bytes (" + describeBuffer(b) + "): " + purpose(b, users_)});
  });
  std::stable_sort(plan.begin(), plan.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::sort(extents.begin(), extents.end());
  bool sharing = false;  // allocateShared lets buffers share bytes only where they must
  for (std::size_t i = 1; i < extents.size(); ++i) sharing |= extents[i].first < extents[i - 1].second;
  const bool dynamicShared = k_.sharedBytes > t_.staticSharedLimit;

  std::ostringstream s;
  s << "// ---- " << k_.sourceName << " -> " << k_.name << " ----\n";
  s << "// " << k_.numWarps << " warps";
  if (k_.producerWarps) s << " and a producer warp group of " << k_.producerWarps;
  s << " (" << threads << " threads) per program" << (k_.target.empty() ? "" : ", for " + k_.target) << ".\n";
  // min_programs_per_sm: ptxas keeps each thread within its share of the SM's 64K registers.
  const int minPrograms = k_.producerWarps ? 1 : k_.minPrograms;
  if (k_.minPrograms && !k_.producerWarps)
    s << "// At least " << k_.minPrograms << " programs per SM (min_programs_per_sm): at most "
      << registerCap(k_.minPrograms, threads) << " registers per thread.\n";
  else if (k_.minPrograms > 1)
    s << "// One program per SM: warp specialisation (warp_specialize = true) overrides min_programs_per_sm = " << k_.minPrograms
      << ".\n";
  s << "// Layouts as task mappings (warps, lanes, each thread's elements; a larger tile repeats them):\n";
  for (std::size_t i = 0; i < k_.layouts.size(); ++i) s << "//   L" << i << " = " << describeAsTaskMapping(k_.layouts[i]) << "\n";
  if (accesses.empty()) s << "// Global accesses: none of tiles.\n";
  else s << "// Global accesses (per thread):\n";
  for (const auto& a : accesses) s << "//   " << a << "\n";
  if (k_.specialised) s << "// Specialised variant: the launcher picks it when " << variantConditionText() << ".\n";
  if (!k_.tensorMaps.empty()) {
    std::string maps;
    for (const TensorMapInfo& m : k_.tensorMaps)
      maps += (maps.empty() ? "" : ", ") + names_.of(k_.params[static_cast<std::size_t>(m.param)]) + (m.im2colShift ? " (im2col mode)" : "");
    s << "// TMA: descriptors " << maps << " (128B swizzle, zero fill), encoded by the launcher, which takes the next\n"
      << "// variant where one cannot be encoded; each loop waits on a slot's mbarrier, keeps one wgmma batch in flight\n"
      << "// where both operands come from the rings, and ";
    if (k_.producerWarps)
      s << "warp-specialised: the producer warp group's first warp copies\n"
        << "// the boxes up to num_stages iterations ahead, each slot released by every consumer warp (its \"empty\"\n"
        << "// mbarrier) once no wgmma reads it; setmaxnreg moves registers from the producer to the consumers.\n";
    else
      s << "one thread copies the boxes num_stages - 1 iterations ahead.\n";
    if (ringLoops > 1)
      s << "// One ring for " << ringLoops << " loops in a row: their slots and phases run on from one loop to the next, and "
        << (k_.producerWarps ? "the producer\n// copies their boxes in one stream.\n" : "each loop's\n// last iterations copy the next loop's first boxes.\n");
    if (carrier)
      s << "// Both roles run the loop at line " << carrier << " around the TMA loop; the ring's slot and phase carry over its\n"
        << "// iterations, so the producer copies the next iteration's first boxes while the consumers finish this one.\n";
    if (perIteration)
      s << "// The operand copied at line " << perIteration << " is copied once per iteration of that loop, into one buffer: the\n"
        << "// producer waits until every consumer warp has released it (after its last TMA loop), then copies the next.\n";
    if (overlapped)
      s << "// Overlapped dots: each iteration issues the next block's first wgmma with this block's second, waits for\n"
        << "// the first only (wait_group 1) and computes on it while the second runs.\n";
    if (turns)
      s << "// Turns: the consumer warp groups issue their wgmma batches one after the other (named barriers), so one\n"
        << "// group's work on a result overlaps the next group's wgmma.\n";
    if (k_.persistent)
      s << "// Persistent: min(programs, SMs) programs each run programs blockIdx.x, blockIdx.x + gridDim.x, ... of the\n"
        << "// grid tilecc_grid, the rings' slots and phases carried from one to the next.\n";
    bool stores = false;
    walk(*k_.body, [&](const Op& o) { stores = stores || o.kind == OpKind::TmaStore; });
    if (stores)
      s << "// Stores through TMA: the tile goes to a swizzled buffer, one thread copies it out (waited for before the\n"
        << "// buffer is written again, and before the program ends).\n";
  }
  if (k_.sharedBytes == 0) {
    s << "// Shared memory: none.\n";
  } else {
    if (k_.stagesAsked)
      s << "// Pipeline: " << stagesCut(k_) << "; more do not fit in " << k_.target << "'s shared memory.\n";
    s << "// Shared memory: " << k_.sharedBytes << " bytes (" << (dynamicShared ? "dynamic" : "static")
      << (sharing                ? "); buffers whose lifetimes do not overlap share bytes (mbarriers never do):\n"
          : extents.size() == 1 ? "), one buffer:\n"
                                : "); each buffer has bytes of its own:\n");
    for (const auto& p : plan) s << "//   " << p.second << "\n";
  }
  s << "namespace " << kKernelNamespace << " {\n";
  // One program per SM where warp specialisation reallocates registers (setmaxnreg needs it).
  s << "__global__ void __launch_bounds__(" << threads << (minPrograms ? ", " + std::to_string(minPrograms) : "") << ") " << k_.name
    << "(" << params << ") {\n";
  if (!t_.guard.empty()) s << "#if defined(__CUDA_ARCH__) && !(" << t_.guard << ")\n  __trap();  // built for another architecture\n#else\n";
  bool swizzled = false;
  walk(*k_.body, [&](const Op& o) {
    if (o.kind == OpKind::LocalAlloc && o.result()->type.smem.swizzle) swizzled = true;
  });
  const std::string align = swizzled ? "1024" : "16";
  // Declarations of one extern array must agree in a file: 1024-byte alignment has its own.
  if (dynamicShared && swizzled)
    s << "  extern __shared__ __align__(1024) unsigned char smem_swizzled[];  // " << k_.sharedBytes
      << " bytes, set by the launcher; swizzled buffers need 1024-byte alignment\n  unsigned char* const smem = smem_swizzled;\n";
  else if (dynamicShared)
    s << "  extern __shared__ __align__(" << align << ") unsigned char smem[];  // " << k_.sharedBytes << " bytes, set by the launcher\n";
  else if (k_.sharedBytes > 0)
    s << "  __shared__ __align__(" << align << ") unsigned char smem[" << k_.sharedBytes << "];\n";
  // The thread positions the printed code references: a name asked for while an expression
  // was built may end up unused (nvcc warns about a variable declared but never referenced).
  // Later declarations use earlier ones only, so one backward pass keeps what is needed.
  auto mentions = [](const std::string& text, const std::string& name) {
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t p = text.find(name); p != std::string::npos; p = text.find(name, p + 1))
      if ((p == 0 || !ident(text[p - 1])) && (p + name.size() == text.size() || !ident(text[p + name.size()]))) return true;
    return false;
  };
  std::vector<const std::string*> kept;
  std::string referenced;  // the kept declarations' text
  for (auto it = pre_.rbegin(); it != pre_.rend(); ++it)
    if (mentions(body_, it->first) || mentions(referenced, it->first)) {
      kept.push_back(&it->second);
      referenced += it->second + "\n";
    }
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) s << "  " << **it << "\n";
  s << body_ << kEndMark << "\n";
  if (!t_.guard.empty()) s << "#endif\n";
  s << "}\n";
  s << "}  // namespace " << kKernelNamespace << "\n";
  out.name = k_.name;
  out.sourceName = k_.sourceName;
  out.kernelText = s.str();
  out.threads = threads;
  out.persistent = k_.persistent;
  out.sharedBytes = k_.sharedBytes;
  out.dynamicShared = dynamicShared;
  out.usesHalf = usesHalf_;
  out.usesBf16 = usesBf16_;

  std::ostringstream rep;
  rep << "kernel " << k_.name << " (" << k_.sourceName << "), " << k_.numWarps << " warps"
      << (k_.target.empty() ? "" : ", for " + k_.target) << "\n";
  if (k_.specialised) rep << "  variant: when " << variantConditionText() << "\n";
  for (const GridCheck& c : k_.gridChecks)
    rep << "  checked by the launcher over the grid (line " << c.line << ", else another variant runs): " << c.what << "; " << c.why << "\n";
  if (k_.producerWarps)
    rep << "  warp-specialised: a producer warp group of " << k_.producerWarps << " warps issues the TMA copies"
        << (k_.persistent ? "; persistent grid (min(programs, SMs) programs)" : "")
        << (carrier ? "; both roles run the loop at line " + std::to_string(carrier) + ", the ring carried over its iterations" : "")
        << (perIteration ? "; the operand copied at line " + std::to_string(perIteration) + " is copied once per iteration, into one buffer" : "")
        << (overlapped ? "; the loop's two dots overlap across iterations" : "")
        << (k_.notOverlapped.empty() ? "" : "; the loop's two dots do not overlap: " + k_.notOverlapped)
        << (turns ? "; consumer warp groups take turns at the tensor cores" : "") << "\n";
  else if (!k_.tensorMaps.empty() && !k_.notSpecialized.empty())
    rep << "  not warp-specialised: " << k_.notSpecialized << "\n";
  if (!k_.noTma.empty() && k_.tensorMaps.empty()) rep << "  no TMA variant: " << k_.noTma << "\n";  // a TMA variant's rings say theirs
  if (ringLoops > 1)
    rep << "  one ring for " << ringLoops << " TMA loops in a row: "
        << (k_.producerWarps ? "the producer copies their boxes in one stream" : "each loop's last iterations copy the next loop's first boxes") << "\n";
  walk(*k_.body, [&](const Op& o) {  // the translator's own assumptions, checked in every program
    if (o.kind == OpKind::Assert && o.count) rep << "  checked per program (line " << o.loc.line << ", a trap otherwise): " << o.note << "\n";
  });
  walk(*k_.body, [&](const Op& o) {  // version-masks' ifs carry the note
    if (o.kind == OpKind::If && !o.note.empty()) rep << "  select (line " << o.loc.line << "): " << o.note << " (a uniform test)\n";
  });
  rep << "  layouts:\n";
  for (std::size_t i = 0; i < k_.layouts.size(); ++i) rep << "    L" << i << " = " << describeAsTaskMapping(k_.layouts[i]) << "\n";
  rep << "  accesses:\n";
  for (const auto& a : accesses) rep << "    " << a << "\n";
  rep << "  tiles:\n";
  walk(*k_.body, [&](const Op& o) {
    for (const auto& reg : o.regions)
      for (const Value* a : reg->args)
        if (a->type.isTile()) rep << "    " << names_.of(a) << ": " << toString(a->type) << " L" << a->layout << "\n";
    for (const Value* r : o.results)
      if (r->type.isTile() && !r->name.empty() && views_.count(r->id))
        rep << "    " << names_.of(r) << ": " << toString(r->type) << " L" << r->layout << "\n";
  });
  rep << "  registers: " << describe(estimateRegisters(k_)) << "\n";
  if (k_.minPrograms && !k_.producerWarps)
    rep << "  programs per SM: at least " << k_.minPrograms << " (min_programs_per_sm), so at most "
        << registerCap(k_.minPrograms, threads) << " registers per thread (ptxas spills beyond)\n";
  rep << "  shared memory: " << k_.sharedBytes << " bytes\n";
  if (k_.stagesAsked)
    rep << "    pipeline: " << stagesCut(k_) << " (more do not fit in " << k_.target << "'s shared memory)\n";
  for (const auto& p : plan) rep << "    " << p.second << "\n";
  // Each dot's instruction, and why one on mma.sync would not be wgmma on sm_90a (where it
  // would, sm_90a has a kernel of its own; where not, this kernel serves sm_90a too).
  std::vector<std::string> dots;
  walk(*k_.body, [&](const Op& o) {
    const std::string at = "    dot at line " + std::to_string(o.loc.line) + ": ";
    if (o.kind == OpKind::Wgmma) {
      const Value* b = o.operands[1];
      const int n = o.transposed ? b->type.shape[0] : b->type.shape[1];
      dots.push_back(at + "wgmma m64n" + std::to_string(n) + "k16, A from " +
                     (o.operands[0]->type.isShared() ? (o.transposedA ? "shared memory, M-major" : "shared memory") : "registers"));
    } else if (o.kind == OpKind::Mma) {
      Type a = o.operands[0]->type;
      Type b = o.operands[1]->type;
      if (o.transposedA) std::swap(a.shape[0], a.shape[1]);  // A held as [K][M]
      if (o.transposed) std::swap(b.shape[0], b.shape[1]);  // B held as [N][K]
      std::string why = wgmmaMisfit(a, b, o.result()->type, k_.numWarps);
      if (why.empty()) why = o.note;
      if (t_.hopper && why.empty()) why = t_.wgmma ? "its accumulator's layout was fixed by other uses" : "wgmma is off (--no-wgmma)";
      dots.push_back(at + (o.instr == MmaInstr::FmaIEEE ? std::string("CUDA-core FMA (fp32 without tf32)") : "mma.sync") +
                     (o.transposedA ? ", A M-major (ldmatrix.trans)" : "") +
                     (why.empty() ? "" : "; not wgmma on sm_90a: " + why));
    }
  });
  if (!dots.empty()) rep << "  dots:\n";
  for (const auto& d : dots) rep << d << "\n";
  // exp2 in loops, once per source line: what keeping subnormal results costs, and the function
  // that does not (porters of Triton kernels meet this: Triton's tl.math.exp2 is fast_exp2).
  std::set<unsigned> exp2Lines;  // a nested loop's are found once per enclosing loop: a set
  walk(*k_.body, [&](const Op& loop) {
    if (loop.kind != OpKind::For) return;
    walk(static_cast<const Block&>(*loop.regions[0]), [&](const Op& o) {
      if (o.kind == OpKind::Unary && o.unop == UnOp::Exp2 && o.result()->type.isTile()) exp2Lines.insert(o.loc.line);
    });
  });
  if (!exp2Lines.empty()) rep << "  exp2 in loops:\n";
  for (const unsigned line : exp2Lines)
    rep << "    exp2 at line " << line << ": keeps subnormal results (exp2f: MUFU.EX2 and three instructions per element); "
        << "fast_exp2 is MUFU.EX2 alone, and what Triton's tl.math.exp2 computes on f32\n";
  rep << "  barriers:\n";
  for (const auto& b : barriers_) rep << "    " << b << "\n";
  out.report = rep.str();
  return true;
}

}  // namespace tilecc::codegen

namespace tilecc {

bool printCudaKernel(const ir::Kernel& k, const Target& t, CudaKernel& out) {
  codegen::KernelPrinter p(k, t);
  return p.run(out);
}

}  // namespace tilecc
