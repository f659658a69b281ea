#include "driver/Pipeline.h"

#include "analysis/Registers.h"
#include "codegen/CudaPrinter.h"
#include "codegen/Family.h"
#include "driver/Output.h"
#include "frontend/Frontend.h"
#include "ir/Clone.h"
#include "ir/Names.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "transform/Passes.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <utility>

namespace tilecc {

namespace {

/// kernels/softmax.tile.cpp → softmax
std::string stemOf(const std::string& input) {
  std::string name = llvm::sys::path::filename(input).str();
  for (const char* ext : {".tile.cpp", ".tile.cc", ".cpp", ".cc", ".cxx"}) {
    const std::string e = ext;
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
      return name.substr(0, name.size() - e.size());
  }
  return name;
}

// ---- the pipeline, one step per line ----

/// Tile level: what every variant starts from.
void tileLevel(ir::Kernel& k) {
  ir::canonicalize(k);
  ir::verify(k);
}

/// A variant's access widths and layouts, from what it may assume about its arguments (its
/// promises and Kernel::assumed).
void layoutLevel(ir::Kernel& k, const Target& t) {
  ir::chooseAccessWidths(k, ir::variantFacts(k), t.hopper);
  ir::assignLayouts(k, t);
  ir::canonicalize(k);
  ir::verify(k);
}

/// GPU level, for one target.
void gpuLevel(ir::Kernel& k, const Target& t) {
  ir::makeSharedExplicit(k, t);
  ir::canonicalize(k);  // operands the staging replaced (trans views) must not look used
  ir::hoistSharedStores(k);
  ir::hoistGuardedLoads(k, t);
  ir::pipelineLoops(k, t);
  if (ir::warpSpecialize(k, t)) {
    ir::persistentGrid(k, t);
    ir::overlapDots(k, t);
  } else {
    ir::chainTmaLoops(k, t);
  }
  ir::tmaStores(k, t);
  ir::rematerializePointers(k);
  ir::canonicalize(k);
  ir::allocateShared(k);
  ir::insertBarriers(k);
  // Not take-turns (tilecc-opt --pass=take-turns): measured on the H200, every warp-specialised
  // attention kernel ran 1.4-10% faster without turns (README, thirty-second run).
  ir::versionMasks(k);  // last: the loop passes above see the body they expect
  ir::renumberLayouts(k);
  ir::verify(k);
}

// ---- variants ----

/// Each tile access's width as the printer issues it (ir::issuedVec over its pointers' layout).
std::vector<int> issuedWidths(const ir::Kernel& k) {
  std::vector<int> w;
  ir::walk(*k.body, [&](const ir::Op& op) {
    if (!ir::isTileAccess(op)) return;
    const ir::Value* p = op.operands[0];
    const int axis = op.access.axis;
    int vec = 1;
    if (axis >= 0 && p->layout >= 0 && p->type.elem.isPtr()) {
      const ir::AxisGeom g = ir::axisGeom(k.layouts[static_cast<std::size_t>(p->layout)], axis, p->type.shape[static_cast<std::size_t>(axis)]);
      vec = ir::issuedVec(op.access, g.spt, p->type.elem.pointeeType().bytes());
    }
    w.push_back(vec);
  });
  return w;
}

/// The facts of the specialised variants: every pointer parameter 16-byte aligned and every
/// integer parameter a multiple of 16 or equal to 1 (a unit stride), keeping only the
/// assumptions that widen some access, each integer's divisibility then weakened to the least
/// of 16, 8, 4, 2 that keeps every width (a multiple of 8 for f16 data). The first set takes
/// the unit strides of row-major data (runs along each tile's last axis); then, for each load
/// that feeds a dot and can run along another axis instead (a transposed operand: `x + i + j *
/// ld` with `ld` the stride users pass for column-major data), the first set with that load's
/// unit stride moved to its other axis
/// (Triton specialises every integer equal to 1, per launch; ahead of time, the orientations
/// of GEMM operands are the ones worth a variant each). Integer parameters whose sign a dividend
/// of / or % needs are assumed >= 0 in these sets (kNonNegative; never in the general kernel,
/// which serves negative ones). Empty when no access would be wider than in the general kernel.
/// `vectorAtomics`: some target adds f32 vectors at once. `issued`: the widths the targets'
/// layouts issue under a set, against which each set is finished again (`settle`). Each set
/// comes in two: the sm_90a TMA variant's (its epilogue stores may go out as TMA boxes), and
/// the other variants', which assume no more than their stores issue.
using Assumed = std::vector<std::pair<int, std::int64_t>>;
/// Per target, each tile access's width as a variant with these assumptions issues it.
using IssuedWidths = std::function<std::vector<std::vector<int>>(const Assumed&)>;

std::vector<std::pair<Assumed, Assumed>> alignedAssumptions(const ir::Kernel& tile, const ir::ParamFacts& promised,
                                                            bool vectorAtomics, const IssuedWidths& issued) {
  // Each tile access's vector width, and the width it has along the tile's last axis (1 when
  // its runs lie along another): one axis analysis gives both.
  struct Width {
    int vec, alongLast;
  };
  const auto users = ir::collectUsers(const_cast<ir::Block&>(*tile.body));
  std::vector<bool> dotOperand;  // per access: a load whose value a dot multiplies
  auto feedsDot = [&](const ir::Value* v) {
    for (int depth = 0; v && depth < 4; ++depth) {  // through conversions and transposes
      const auto it = users.find(v);
      if (it == users.end()) return false;
      const ir::Value* next = nullptr;
      for (const ir::Op* u : it->second) {
        if (u->kind == ir::OpKind::Dot && (u->operands[0] == v || u->operands[1] == v)) return true;
        if ((u->kind == ir::OpKind::Convert || u->kind == ir::OpKind::Trans) && u->result()) next = u->result();
      }
      v = next;
    }
    return false;
  };
  // Per access: whether tma-stores may send it out as boxes (a 2-D store of 2- or 4-byte
  // elements). Such a store's assumptions, like a dot operand's, serve the TMA variant's boxes
  // whatever the layout holds.
  std::vector<bool> boxStore;
  ir::walk(*tile.body, [&](const ir::Op& op) {
    if (!ir::isTileAccess(op)) return;
    dotOperand.push_back(op.kind == ir::OpKind::Load && feedsDot(op.result()));
    const int bytes = op.operands[0]->type.elem.isPtr() ? op.operands[0]->type.elem.pointeeType().bytes() : 0;
    boxStore.push_back(op.kind == ir::OpKind::Store && op.operands[0]->type.rank() == 2 && (bytes == 2 || bytes == 4));
  });
  // `params`: integer parameters may be assumed >= 0 (not for the general kernel); their
  // indices go to `assumedParams`, where given.
  auto widths = [&](const ir::ParamFacts& f, bool params = true, std::set<int>* assumedParams = nullptr) {
    std::set<const ir::Value*> signs;  // as chooseAccessWidths: assumed where they widen, checked per program
    const auto info = ir::analyzeAxes(tile, f, &signs, params);
    if (assumedParams)
      for (const ir::Value* v : signs)
        if (!v->def) assumedParams->insert(tile.paramIndex(v));
    std::vector<Width> w;
    ir::walk(*tile.body, [&](const ir::Op& op) {
      if (ir::isTileAccess(op)) {
        const ir::Access a = ir::accessOf(op, info, vectorAtomics, op.result() && users.count(op.result()));
        w.push_back({a.vec, a.axis == op.operands[0]->type.rank() - 1 ? a.vec : 1});
      }
    });
    return w;
  };
  auto sameVecs = [](const std::vector<Width>& a, const std::vector<Width>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Width& x, const Width& y) { return x.vec == y.vec; });
  };
  auto narrowsAny = [](const std::vector<Width>& w, const std::vector<Width>& than) {
    for (std::size_t i = 0; i < w.size(); ++i)
      if (w[i].vec < than[i].vec) return true;
    return false;
  };
  std::vector<int> candidates;
  ir::ParamFacts facts = promised;
  for (std::size_t i = 0; i < tile.params.size(); ++i) {
    const ir::ElemType e = tile.params[i]->type.elem;
    if (!(e.isPtr() || e.isInt())) continue;
    const int index = static_cast<int>(i);
    if (facts.count(index) && facts[index] >= 16) continue;
    facts[index] = 16;
    candidates.push_back(index);
  }
  auto isInt = [&](int index) { return tile.params[static_cast<std::size_t>(index)]->type.elem.isInt(); };
  std::vector<Width> best = widths(facts);
  // Integers that are unit strides: `x + i * stride` is contiguous when stride == 1. An integer
  // takes that assumption instead of divisibility by 16 where it widens some access along the
  // tile's last axis (row-major data: the stride users pass as 1 is the innermost one) and
  // narrows none.
  for (int index : candidates) {
    if (!isInt(index)) continue;
    ir::ParamFacts unit = facts;
    unit[index] = ir::kEqualsOne;
    const std::vector<Width> w = widths(unit);
    bool wider = false;
    for (std::size_t i = 0; i < w.size(); ++i) wider |= w[i].alongLast > best[i].alongLast;
    if (wider && !narrowsAny(w, best)) {
      facts = unit;
      best = w;
    }
  }
  const std::vector<Width> general = widths(promised, false);
  // One set of facts as the launcher checks them, without the assumptions that change nothing:
  // every access keeps at least the width `need` asks of it.
  // `kept`: per assumption this finish keeps, the widths without it; a later finish against
  // lower needs skips those that narrowed an access it still needs (the analysis per try is the
  // cost of this function).
  using Kept = std::map<int, std::vector<Width>>;
  auto finish = [&](ir::ParamFacts f, const std::vector<int>& need, Kept* kept, const Kept* before) {
    auto keeps = [&](const std::vector<Width>& v) {
      for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i].vec < need[i]) return false;
      return true;
    };
    for (int index : candidates) {
      if (before && before->count(index) && !keeps(before->at(index))) continue;
      ir::ParamFacts fewer = f;
      fewer.erase(index);
      if (promised.count(index)) fewer[index] = promised.at(index);
      std::vector<Width> v = widths(fewer);
      if (keeps(v)) f = fewer;
      else if (kept) (*kept)[index] = std::move(v);
    }
    // The weakest divisibility of each integer that keeps every width: 16 bytes of f16 are 8
    // elements, so sizes ≡ 8 (mod 16) keep the 16-byte (and TMA) variant instead of the general
    // kernel's element-wise loads.
    // Against the widths layouts issue (`before` given), a pointer's alignment is weakened too:
    // an f32 accumulator's rows stored 8 bytes at a time need 8, not 16.
    for (int index : candidates) {
      if (!(isInt(index) || before) || !f.count(index) || f.at(index) != 16) continue;
      for (std::int64_t d = 8; d >= 2 && d > (promised.count(index) ? promised.at(index) : 1); d /= 2) {
        ir::ParamFacts weaker = f;
        weaker[index] = d;
        if (!keeps(widths(weaker))) break;
        f = weaker;
      }
    }
    std::vector<std::pair<int, std::int64_t>> assumed;
    for (int index : candidates)
      if (f.count(index) && (f.at(index) == ir::kEqualsOne || f.at(index) > 1) && !(promised.count(index) && promised.at(index) == f.at(index)))
        assumed.push_back({index, f.at(index)});
    std::set<int> signs;  // where they widen something
    if (!sameVecs(widths(f, true, &signs), widths(f, false)))
      for (int index : signs) assumed.push_back({index, ir::kNonNegative});
    return assumed;
  };
  // What the layouts issue may be narrower than what the analysis proves (a row statistic a
  // thread holds one element of, stored 4 bytes at a time though 16 are proven): an assumption
  // only such an access needs gains nothing, yet its launch check sends every call that fails it
  // to the general kernel (user report: an attention that writes its log-sum-exp ran with 2-byte
  // loads wherever the sequence length was odd). So the set is finished again against the
  // widths the targets' layouts issue, and kept where they issue the same.
  auto settle = [&](const ir::ParamFacts& f, const std::vector<Width>& w) -> std::pair<Assumed, Assumed> {
    std::vector<int> need;
    for (const Width& x : w) need.push_back(x.vec);
    Kept kept;
    const auto set = finish(f, need, &kept, nullptr);
    if (!issued) return {set, set};
    const auto printed = issued(set);
    auto capped = [&](bool tma) {
      std::vector<int> n = need;
      bool narrower = false;
      for (std::size_t i = 0; i < n.size(); ++i) {
        if (dotOperand[i] || (tma && boxStore[i])) continue;
        int most = 1;
        for (const auto& t : printed) most = std::max(most, i < t.size() ? t[i] : n[i]);
        if (most < n[i]) n[i] = most, narrower = true;
      }
      if (!narrower) return set;
      // Not down to nothing: the set also carries the sm_90a TMA variant, whose boxes may need
      // none of it (the layouts' widths do not see them).
      auto fewer = finish(f, n, nullptr, &kept);
      return fewer != set && !fewer.empty() && issued(fewer) == printed ? fewer : set;
    };
    return {capped(true), capped(false)};
  };
  std::vector<std::pair<Assumed, Assumed>> sets;
  if (!sameVecs(best, general)) sets.push_back(settle(facts, best));
  // Transposed dot operands: this load's unit strides along the last axis dropped, then unit
  // strides that widen it along another axis taken, narrowing no other access.
  for (std::size_t x = 0; x < dotOperand.size(); ++x) {
    if (!dotOperand[x]) continue;
    ir::ParamFacts f = facts;
    std::vector<Width> w = best;
    for (int index : candidates) {
      if (f.at(index) != ir::kEqualsOne) continue;
      ir::ParamFacts g = f;
      g[index] = 16;
      const std::vector<Width> v = widths(g);
      if (v[x].alongLast < w[x].alongLast) f = g, w = v;
    }
    bool flipped = false;
    for (int index : candidates) {
      if (!isInt(index) || f.at(index) == ir::kEqualsOne) continue;
      ir::ParamFacts g = f;
      g[index] = ir::kEqualsOne;
      const std::vector<Width> v = widths(g);
      if (v[x].vec > w[x].vec && v[x].alongLast == 1 && !narrowsAny(v, w)) f = g, w = v, flipped = true;
    }
    if (!flipped || w[x].vec <= general[x].vec) continue;
    auto set = settle(f, w);
    if (std::find(sets.begin(), sets.end(), set) == sets.end()) sets.push_back(std::move(set));
  }
  return sets;
}

/// The name a variant of `sets[i]` adds to its kernel's: none for the first set; for another,
/// its unit strides that the first set does not assume (`_stride_am_1`): stable under edits
/// elsewhere in the kernel, and saying which layout of the arguments it serves.
std::string setSuffix(const ir::Kernel& k, const std::vector<Assumed>& sets, std::size_t i) {
  if (i == 0) return {};
  std::string s;
  for (const auto& [index, value] : sets[i])
    if (value == ir::kEqualsOne && std::find(sets[0].begin(), sets[0].end(), std::make_pair(index, value)) == sets[0].end())
      s += "_" + k.params[static_cast<std::size_t>(index)]->name + "_1";
  return s.empty() ? "_" + std::to_string(i) : s;
}

/// The IR of a variant without its header line (name, target): equal bodies need one kernel.
std::string bodyOf(const ir::Kernel& k) {
  const std::string s = ir::print(k, {true});
  return s.substr(s.find('\n') + 1);
}

struct Variant {
  std::unique_ptr<ir::Kernel> kernel;
  const Target* target = nullptr;
  bool servesAll = false;  // an sm_80-path variant whose sm_90a twin was identical
};

std::string kb(int bytes) { return std::to_string(bytes / 1024) + (bytes % 1024 ? "." + std::to_string(bytes % 1024 * 10 / 1024) : "") + " KB"; }

/// Where the output of `input` goes ("-": standard output): its .cu, or with another --emit
/// the one text of the run; and the launcher header ("" for none).
std::string outputPathFor(const DriverOptions& o, const std::string& input) {
  if (o.emit != "cuda") return o.output.empty() ? "-" : o.output;
  return o.output.empty() ? stemOf(input) + ".cu" : o.output;
}
std::string headerPathFor(const DriverOptions& o, const std::string& cu) {
  if (!o.header.empty()) return o.header;
  if (cu == "-") return {};
  const std::string dir = llvm::sys::path::parent_path(cu).str();
  return dir + (dir.empty() ? "" : "/") + llvm::sys::path::stem(cu).str() + ".h";
}

/// Inputs that exist and outputs that can neither overwrite an input (a tuning table too) nor
/// each other: a bad command line is found before anything is parsed or written. Returns 0 or
/// the exit status.
int checkFiles(const DriverOptions& o) {
  for (const std::string& input : o.inputs) {
    if (llvm::sys::fs::is_directory(input)) {
      std::fprintf(stderr, "tilecc: error: input '%s' is a directory\n", input.c_str());
      return 2;
    }
    if (llvm::sys::fs::exists(input)) continue;
    const bool looksLikeArch = std::regex_match(input, std::regex("(sm|compute)_[0-9]{2,3}a?"));
    std::fprintf(stderr, "tilecc: error: no such file: '%s'%s\n", input.c_str(),
                 looksLikeArch ? " (for several architectures write --arch sm_80,sm_90a)" : "");
    return 2;
  }
  std::vector<std::pair<std::string, std::string>> outputs;  // path, what it is
  for (const std::string& input : o.inputs) {
    const std::string out = outputPathFor(o, input);
    const std::string of = o.inputs.size() > 1 ? " of '" + input + "'" : "";
    outputs.push_back({out, (o.emit == "cuda" ? "the CUDA output" : "the output") + of});
    if (const std::string h = o.emit == "cuda" ? headerPathFor(o, out) : ""; !h.empty()) outputs.push_back({h, "the header" + of});
  }
  if (!o.depfile.empty()) outputs.push_back({o.depfile, "the depfile"});
  std::vector<std::pair<std::string, const char*>> read;  // path, what it is
  for (const std::string& input : o.inputs) read.push_back({input, "the input"});
  for (const std::string& table : o.tuningTables) read.push_back({table, "the tuning table"});
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].first == "-") continue;
    for (const auto& [input, what] : read)
      if (sameFile(outputs[i].first, input)) {
        std::fprintf(stderr, "tilecc: error: %s '%s' is %s '%s': it would be overwritten\n", outputs[i].second.c_str(),
                     outputs[i].first.c_str(), what, input.c_str());
        return 2;
      }
    for (std::size_t j = 0; j < i; ++j)
      if (outputs[j].first != "-" && sameFile(outputs[i].first, outputs[j].first)) {
        std::fprintf(stderr, "tilecc: error: %s and %s are both '%s'%s\n", outputs[j].second.c_str(), outputs[i].second.c_str(),
                     outputs[i].first.c_str(), o.inputs.size() > 1 ? " (translate inputs of one name apart, with -o)" : "");
        return 2;
      }
  }
  return 0;
}

/// Why a TMA build copied nothing by TMA: pipeline-loops' reason (rows under 128 bytes), else,
/// where its loops copy dot operands ahead, that none was a box.
std::string whyNoTma(const ir::Kernel& k) {
  if (!k.noTma.empty()) return k.noTma;
  bool rings = false;
  ir::walk(*k.body, [&](const ir::Op& o) { rings = rings || o.kind == ir::OpKind::AsyncCopy; });
  return rings ? "no loop's dot operands all have pointers and masks that form boxes TMA can copy" : "";
}

/// Tiles no thread can hold: a warning where values spill, an error where the generated code
/// would not be worth building (nvcc runs for minutes, the kernel runs from local memory).
bool checkRegisters(const ir::Kernel& variant, const ir::Kernel& source) {
  const ir::RegisterEstimate e = ir::estimateRegisters(variant);
  // Above 8 warps a program's threads share an SM's 65536 registers: fewer than 255 each, and
  // more warps do not help.
  const int cap = ir::registersPerThread(source.numWarps);
  if (e.registers <= cap) return true;
  const bool refuse = e.registers > ir::kRegisterRefusal;
  const std::string advice = cap < ir::kRegistersPerThread
                                 ? " with num_warps = " + std::to_string(source.numWarps) + " (65536 in all)%s; use smaller tiles"
                                 : "%s; use more warps (num_warps = " + std::to_string(source.numWarps) + " now, up to 32) or smaller tiles";
  const std::string format = "%s:%u:%u: %s: kernel '%s' needs %s, more than the %d a thread has" + advice + "\n";
  std::fprintf(stderr, format.c_str(), source.loc.file.c_str(), source.loc.line, source.loc.col, refuse ? "error" : "warning",
               source.sourceName.c_str(), ir::describe(e).c_str(), cap,
               refuse ? ": nvcc would take minutes and the kernel would run from local memory" : ": the rest spill to local memory");
  return !refuse;
}

}  // namespace

int runDriver(const DriverOptions& o) {
  if (!o.output.empty() && o.inputs.size() > 1) {
    std::fprintf(stderr, "tilecc: error: -o takes one input file; got %zu\n", o.inputs.size());
    return 2;
  }
  if (!o.depfileTarget.empty() && o.depfile.empty()) {
    std::fprintf(stderr, "tilecc: error: --depfile-target needs --depfile\n");
    return 2;
  }
  if (!o.depfileTarget.empty() && o.inputs.size() > 1) {
    std::fprintf(stderr, "tilecc: error: --depfile-target takes one input file; got %zu\n", o.inputs.size());
    return 2;
  }
  if (!o.lineDirectivesRelativeTo.empty() && !o.lineDirectives) {
    std::fprintf(stderr, "tilecc: error: --line-directives-relative-to needs --line-directives\n");
    return 2;
  }
  if (!o.header.empty() && o.output.empty()) {
    std::fprintf(stderr, "tilecc: error: --header needs -o\n");
    return 2;
  }
  if (const int rc = checkFiles(o)) return rc;
  std::vector<std::string> archs = o.archs.empty() ? std::vector<std::string>{"sm_80", "sm_90a"} : o.archs;
  for (const auto& a : archs)
    if (!std::regex_match(a, std::regex("sm_[0-9]{2,3}a?"))) {
      std::fprintf(stderr, "tilecc: error: --arch '%s' is not an architecture like sm_80 or sm_90a\n", a.c_str());
      return 2;
    }
  for (const auto& a : archs)
    if (std::stoi(a.substr(3)) < 80) {
      std::fprintf(stderr, "tilecc: error: --arch %s: tilecc targets sm_80 and newer\n", a.c_str());
      return 2;
    }
  std::string archError;
  std::vector<Target> targets = targetsFor(archs, archError);
  for (Target& t : targets) t.wgmma = t.hopper && o.wgmma;
  if (targets.empty()) {
    std::fprintf(stderr, "tilecc: error: %s\n", archError.c_str());
    return 2;
  }

  TuningTable table;
  for (const std::string& path : o.tuningTables) {
    std::string text, error;
    if (!readFile(path, text, &error)) {
      std::fprintf(stderr, "tilecc: error: cannot read the tuning table '%s': %s\n", path.c_str(), error.c_str());
      return 1;
    }
    if (!parseTuningTable(text, path, table, error)) {
      std::fprintf(stderr, "tilecc: error: %s\n", error.c_str());
      return 1;
    }
  }

  FrontendOptions fo;
  fo.inputs = o.inputs;
  fo.extraArgs = o.extraArgs;
  fo.compileDbDir = o.compileDb;
  fo.resourceDir = o.resourceDir;
  fo.runtimeInclude = o.runtimeInclude;
  fo.collectDependencies = !o.depfile.empty();
  std::vector<TranslationUnit> tus;
  if (!runFrontend(fo, tus)) return 1;

  // Everything is generated before anything is written: an error leaves no partial output.
  std::vector<Output> outputs;
  std::string depfile;  // one rule per input
  bool ok = true;
  for (TranslationUnit& tu : tus) {
    const std::string stem = stemOf(tu.input);
    std::string text;  // --emit other than cuda
    std::vector<CudaKernel> kernels;
    std::vector<LauncherPlan> launchers;
    // Variant names never meet a kernel name of the file.
    std::set<std::string> kernelNames;
    for (const auto& k : tu.kernels) kernelNames.insert(k->name);
    ir::Names variantNames(kernelNames);
    for (const std::string& w : cudaVocabulary()) variantNames.reserve(w);
    for (auto& kp : tu.kernels) {
      ir::Kernel& k = *kp;
      tileLevel(k);
      if (o.emit == "ir") {
        text += ir::print(k);
        continue;
      }
      const ir::ParamFacts facts = ir::promisedFacts(k);
      const bool vectorAtomics = std::any_of(targets.begin(), targets.end(), [](const Target& t) { return t.hopper; });
      // Layout-level kernels per (assumptions, target): the variants below start from them.
      std::map<std::pair<Assumed, const Target*>, std::unique_ptr<ir::Kernel>> laidOut;
      auto issued = [&](const Assumed& set) {
        std::vector<std::vector<int>> w;
        for (const Target& t : targets) {
          auto& trial = laidOut[{set, &t}];
          if (!trial) {
            trial = ir::clone(k);
            trial->target = t.name;
            trial->specialised = true;
            trial->assumed = set;
            layoutLevel(*trial, t);
          }
          w.push_back(issuedWidths(*trial));
        }
        return w;
      };
      const auto setPairs = alignedAssumptions(k, facts, vectorAtomics, issued);
      std::vector<Assumed> assumedSets;  // the TMA variants' (they name the variants)
      for (const auto& [tmaSet, plain] : setPairs) assumedSets.push_back(tmaSet);
      std::vector<Variant> variants;  // per target: the aligned variants (if any), then the general one
      bool registersChecked = false;
      for (const Target& t : targets) {
        if (!ok) break;  // one error per kernel: a target with less shared memory fails as well
        // Without wgmma no pass lowers anything differently for sm_90a, so beside an sm_80 target
        // its variant would repeat sm_80's (and be dropped below as identical): skip the work.
        if (t.hopper && !t.wgmma && targets.size() > 1) continue;
        // The kernel's symbol: its name, unless the device code calls a function of that name.
        const std::string symbol = cudaVocabulary().count(k.name) ? variantNames.fresh(k.name + "_kernel") : k.name;
        const std::string base = targets.size() > 1 && t.hopper ? variantNames.fresh(k.name + "_sm90a") : symbol;
        // Variants, most specific first: per set of assumptions, on sm_90a with TMA (kept where
        // TMA copies something; its launcher falls through to the next one where a descriptor
        // cannot be encoded), then aligned; last the general one.
        std::vector<std::pair<int, bool>> plan;  // (set of assumptions or -1, TMA)
        for (std::size_t i = 0; i < assumedSets.size(); ++i) {
          if (t.wgmma && o.tma) plan.push_back({static_cast<int>(i), true});
          plan.push_back({static_cast<int>(i), false});
        }
        plan.push_back({-1, false});
        std::string noTma;  // why the last TMA build was dropped, for its aligned twin's report
        for (const auto& [set, tma] : plan) {
          const bool aligned = set >= 0;
          const std::vector<std::pair<int, std::int64_t>> assumed = aligned ? (tma ? setPairs[static_cast<std::size_t>(set)].first
                                                                                       : setPairs[static_cast<std::size_t>(set)].second)
                                                                            : std::vector<std::pair<int, std::int64_t>>{};
          Target vt = t;
          vt.tma = tma;
          const auto cached = aligned ? laidOut.find({assumed, &t}) : laidOut.end();
          Variant v{ir::clone(cached != laidOut.end() ? *cached->second : k), &t, false};
          ir::Kernel& vk = *v.kernel;
          vk.target = t.name;
          if (aligned) {
            vk.specialised = true;
            vk.assumed = assumed;
            vk.name = variantNames.fresh(base + setSuffix(k, assumedSets, static_cast<std::size_t>(set)) + (vt.tma ? "_tma" : "_aligned"));
          } else {
            vk.name = base;
          }
          if (cached == laidOut.end()) layoutLevel(vk, t);
          if (o.emit == "ir-layout") {
            if (!aligned && &t == &targets.back()) text += ir::print(vk, {true});
            continue;
          }
          gpuLevel(vk, vt);
          if (vt.tma && vk.tensorMaps.empty()) {  // nothing for TMA: the aligned variant is the same
            noTma = whyNoTma(vk);
            continue;
          }
          // The variant again from the source, with `stages` stages, its stores staged or not.
          auto rebuild = [&](int stages, bool stage) {
            auto retry = ir::clone(k);
            retry->target = t.name;
            retry->specialised = true;
            retry->assumed = assumed;
            retry->name = v.kernel->name;
            retry->stageStores = stage;
            retry->numStages = stages;
            if (stages != k.numStages) retry->stagesAsked = k.numStages;
            layoutLevel(*retry, t);
            gpuLevel(*retry, vt);
            v.kernel = std::move(retry);
          };
          // The aligned variant is an optimisation: with too little shared memory for its
          // pipeline it stores without staging (assign-layouts' staged epilogues: they never
          // cost a stage), then takes a stage fewer (staged again where that fits), or is left out.
          while (aligned && v.kernel->sharedBytes > t.sharedLimit && (v.kernel->numStages > 1 || v.kernel->stagedStores)) {
            const bool unstage = v.kernel->stagedStores;
            rebuild(unstage ? v.kernel->numStages : v.kernel->numStages - 1, !unstage);
          }
          // Fewer stages may leave nothing to pipeline, so nothing for TMA: then the aligned
          // variant is the one to launch (fuzz finding: a single-buffered _tma went first).
          if (vt.tma && v.kernel->tensorMaps.empty()) {
            noTma = whyNoTma(*v.kernel);
            continue;
          }
          if (aligned && !vt.tma) v.kernel->noTma = std::exchange(noTma, {});  // its TMA twin's reason, if any
          if (v.kernel->sharedBytes > t.sharedLimit) {
            if (aligned) continue;
            std::string others;
            for (const std::string& a : archs)
              if (sharedLimitOf(a).value_or(0) >= v.kernel->sharedBytes) others += (others.empty() ? "" : ", ") + a;
            std::fprintf(stderr,
                         "%s:%u:%u: error: kernel '%s' needs %d bytes (%s) of shared memory on %s, which allows %d (%s); use "
                         "smaller tiles or fewer num_stages%s\n",
                         k.loc.file.c_str(), k.loc.line, k.loc.col, k.sourceName.c_str(), v.kernel->sharedBytes,
                         kb(v.kernel->sharedBytes).c_str(), t.archs.front().c_str(), t.sharedLimit, kb(t.sharedLimit).c_str(),
                         others.empty() ? "" : (", or leave " + t.archs.front() + " out of --arch (" + others + " would have enough)").c_str());
            ok = false;
            break;
          }
          if (!aligned && !registersChecked) {  // once per kernel: the targets share its layouts
            registersChecked = true;
            if (!checkRegisters(*v.kernel, k)) {
              ok = false;
              break;
            }
          }
          variants.push_back(std::move(v));
        }
      }
      if (o.emit == "ir-layout" || !ok) continue;
      // warp_specialize = true asked for what no variant could do: say so, once, where it was asked.
      const bool hopper = std::any_of(targets.begin(), targets.end(), [](const Target& t) { return t.hopper; });
      if (k.warpSpecialize == 1 && hopper &&
          std::none_of(variants.begin(), variants.end(), [](const Variant& v) { return v.kernel->producerWarps > 0; })) {
        // The reason of the TMA variant (a variant without TMA copies is not kept).
        std::string why = "no dot operand is copied with TMA (its pointers and mask are not a box the launcher can describe)";
        for (const Variant& v : variants)
          if (!v.kernel->notSpecialized.empty()) why = v.kernel->notSpecialized;
        std::fprintf(stderr,
                     "%s:%u:%u: warning: kernel '%s' asks for warp_specialize = true, but %s; it is compiled without "
                     "(warp specialisation takes loops whose dot operands TMA copies, at the kernel's top level or in "
                     "the body of one loop there, num_warps a multiple of 4 up to 28, and no return)\n",
                     k.loc.file.c_str(), k.loc.line, k.loc.col, k.sourceName.c_str(), why.c_str());
      }
      // An sm_90a variant the same as its sm_80 twin is not needed: the sm_80 one serves both.
      std::vector<Variant> kept;
      for (auto& v : variants) {
        bool same = false;
        if (v.target->hopper)
          for (auto& w : variants)
            if (!w.target->hopper && w.kernel->assumed == v.kernel->assumed && bodyOf(*w.kernel) == bodyOf(*v.kernel)) same = true;
        if (!same) kept.push_back(std::move(v));
      }
      if (o.emit == "gpu-ir") {
        for (const auto& v : kept) text += ir::print(*v.kernel, {true});
        continue;
      }
      std::vector<LaunchVariant> launch;
      std::vector<CudaKernel> printed;
      for (const auto& v : kept) {
        CudaKernel ck;
        if (!printCudaKernel(*v.kernel, *v.target, ck)) {
          ok = false;
          break;
        }
        launch.push_back(launchVariantOf(*v.kernel, *v.target, ck));
        printed.push_back(std::move(ck));
      }
      if (!ok) continue;
      if (o.emit == "report")  // in file order: general before aligned
        for (auto it = printed.rbegin(); it != printed.rend(); ++it) text += it->report;
      // Kernels in the file: general before aligned, targets in order; launch: most specific first.
      for (auto it = printed.rbegin(); it != printed.rend(); ++it) kernels.push_back(std::move(*it));
      launchers.push_back(planLauncher(k, launch));
    }
    if (o.emit != "cuda") {
      outputs.push_back({outputPathFor(o, tu.input), text});
      continue;
    }
    const std::string cu = outputPathFor(o, tu.input);
    const std::string h = headerPathFor(o, cu);
    const std::string source = llvm::sys::path::filename(tu.input).str();
    const std::string headerName = h.empty() ? stem + ".h" : llvm::sys::path::filename(h).str();
    LineDirectives lines;
    if (o.lineDirectives) {
      // Relative paths: deterministic wherever the tree is checked out. nvcc resolves them
      // against the directory it runs in, which defaults to the .cu's own.
      std::string dir = o.lineDirectivesRelativeTo;
      if (dir.empty()) dir = cu == "-" ? "." : llvm::sys::path::parent_path(cu).str();
      lines.enabled = true;
      lines.outputName = cu == "-" ? stem + ".cu" : relativePath(cu, dir);
      lines.sourcePath = [dir](const std::string& file) { return relativePath(file, dir); };
    }
    std::string familyCu, familyH;
    for (const FamilyPlan& f : planFamilies(launchers)) {
      std::string cuText, hText, error;
      for (const LauncherPlan& l : launchers)
        for (const std::string& n : {"launch_" + f.name, "launch_" + f.name + "_config", f.name + "_choose"})
          if (l.name == n || l.name == "launch_" + n)
            error = "the kernel family " + f.name + " (" + f.source + ") would declare " + n + ", which is also the launcher of " +
                    l.sourceName + "; rename one of them";
      if (!error.empty() || !printFamily(f, table, cuText, hText, error)) {
        std::fprintf(stderr, "tilecc: error: %s\n", error.c_str());
        ok = false;
        break;
      }
      familyCu += cuText;
      familyH += hText;
    }
    if (!ok) continue;
    outputs.push_back({cu, printCudaFile(source, headerName, kernels, launchers, lines, familyCu)});
    if (!h.empty()) outputs.push_back({h, printHeaderFile(source, launchers, familyH)});
    if (!o.depfile.empty()) {
      std::vector<std::string> deps = tu.dependencies;
      deps.insert(deps.end(), o.tuningTables.begin(), o.tuningTables.end());
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
      depfile += depfileRule(o.depfileTarget.empty() ? cu : o.depfileTarget, deps);
    }
  }
  if (!ok) return 1;
  if (!o.depfile.empty() && o.emit == "cuda") outputs.push_back({o.depfile, depfile});

  if (o.check) {
    bool fresh = true;
    for (const Output& out : outputs)
      if (out.path != "-" && out.path != o.depfile) fresh &= checkUpToDate(out.path, out.text);
    return fresh ? 0 : 1;
  }
  return commitOutputs(outputs) ? 0 : 1;
}

}  // namespace tilecc
