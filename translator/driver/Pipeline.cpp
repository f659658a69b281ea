#include "driver/Pipeline.h"

#include "analysis/AxisInfo.h"
#include "analysis/Layout.h"
#include "codegen/CudaPrinter.h"
#include "driver/Output.h"
#include "frontend/Frontend.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "transform/Canonicalize.h"

#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstdio>
#include <regex>

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

std::vector<int> accessWidths(ir::Kernel& k) {
  std::vector<int> w;
  ir::walk(*k.body, [&](ir::Op& op) {
    if (op.vecAxis >= 0) w.push_back(op.vec);
  });
  return w;
}

/// The variant for aligned arguments: every pointer parameter 16-byte aligned and every
/// integer parameter a multiple of 16, keeping only the assumptions that widen some access.
/// Null when no access would be wider than in the general kernel.
ir::Kernel* specialise(ir::Kernel& general, ir::Kernel* twin, const ir::ParamFacts& promised) {
  if (!twin) return nullptr;
  ir::canonicalize(*twin);
  std::vector<int> candidates;
  ir::ParamFacts facts = promised;
  for (std::size_t i = 0; i < twin->params.size(); ++i) {
    const ir::ElemType e = twin->params[i]->type.elem;
    if (!(e.isPtr() || e.isInt())) continue;
    const int index = static_cast<int>(i);
    if (facts.count(index) && facts[index] >= 16) continue;
    facts[index] = 16;
    candidates.push_back(index);
  }
  ir::chooseAccessWidths(*twin, facts);
  const std::vector<int> best = accessWidths(*twin);
  if (best == accessWidths(general)) return nullptr;
  for (int index : candidates) {  // drop assumptions that change nothing
    ir::ParamFacts fewer = facts;
    fewer.erase(index);
    if (promised.count(index)) fewer[index] = promised.at(index);
    ir::chooseAccessWidths(*twin, fewer);
    if (accessWidths(*twin) == best) facts = fewer;
  }
  ir::chooseAccessWidths(*twin, facts);
  for (int index : candidates)
    if (facts.count(index) && facts.at(index) == 16) twin->assumed.push_back({index, 16});
  twin->name += "_aligned";
  return twin;
}

struct Output {
  std::string path;  // "-" for stdout
  std::string text;
};

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
    std::string ir;
    std::vector<CudaKernel> kernels;
    for (std::size_t ki = 0; ki < tu.kernels.size(); ++ki) {
      ir::Kernel& k = *tu.kernels[ki];
      // The pipeline, one step per line.
      ir::canonicalize(k);
      ir::verify(k);
      if (o.emit == "ir") {
        ir += ir::print(k);
        continue;
      }
      const ir::ParamFacts facts = ir::promisedFacts(k);
      ir::chooseAccessWidths(k, facts);
      ir::Kernel* twin = specialise(k, tu.twins[ki].get(), facts);
      std::vector<ir::Layout> layouts = ir::assignLayouts(k);
      ir::canonicalize(k);
      ir::verify(k);
      if (o.emit == "ir-layout") {
        ir += ir::print(k, &layouts);
        continue;
      }
      CudaKernel ck;
      if (!printCudaKernel(k, layouts, ck)) {
        ok = false;
        continue;
      }
      if (twin) {
        std::vector<ir::Layout> tl = ir::assignLayouts(*twin);
        ir::canonicalize(*twin);
        ir::verify(*twin);
        CudaKernel ct;
        if (!printCudaKernel(*twin, tl, ct)) internalError("the specialised variant of " + k.name + " failed to print");
        addSpecialisedVariant(ck, ct);
      }
      if (o.emit == "report") ir += ck.report;
      kernels.push_back(std::move(ck));
    }
    if (o.emit != "cuda") {
      outputs.push_back({o.output.empty() ? "-" : o.output, ir});
      continue;
    }
    const std::string cu = o.output.empty() ? stem + ".cu" : o.output;
    std::string h = o.header;
    if (h.empty()) h = cu == "-" ? std::string() : llvm::sys::path::parent_path(cu).str() + (llvm::sys::path::parent_path(cu).empty() ? "" : "/") + llvm::sys::path::stem(cu).str() + ".h";
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
    outputs.push_back({cu, printCudaFile(source, headerName, kernels, lines)});
    if (!h.empty()) outputs.push_back({h, printHeaderFile(source, kernels)});
    if (!o.depfile.empty()) {
      std::vector<std::string> deps = tu.dependencies;
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
  for (const Output& out : outputs) {
    if (out.path == "-") {
      std::fwrite(out.text.data(), 1, out.text.size(), stdout);
      continue;
    }
    if (!writeIfChanged(out.path, out.text)) return 1;
  }
  return 0;
}

}  // namespace tilecc
