// tilecc-opt: runs passes on textual Tile IR, for testing one pass at a time.
//
//   tilecc-opt [--target=sm_80|sm_90a] [--no-wgmma] [--tma] [--pass=NAME]... [--emit=ir|cuda] [--list-passes] FILE|-
//
// Reads the kernels in FILE (the format of `tilecc --emit=ir|gpu-ir`), verifies them, runs the
// named passes in the order given, verifies again, and prints the IR (or, with --emit=cuda,
// what the CUDA printer makes of it). Exit status: 0 ok, 1 bad input, 2 bad command line, 3
// internal error.
#include "codegen/CudaPrinter.h"
#include "ir/InternalError.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "transform/Passes.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace {

constexpr const char* kHelp =
    "tilecc-opt: runs tilecc's passes on textual Tile IR, one at a time (for tests and for looking).\n"
    "usage: tilecc-opt [--target=sm_80|sm_90a] [--no-wgmma] [--tma] [--pass=NAME]... [--emit=ir|cuda] [--no-verify] [--list-passes] FILE|-\n"
    "  FILE            kernels as `tilecc --emit=ir|ir-layout|gpu-ir` prints them; - reads standard input\n"
    "  --pass=NAME     run this pass (repeatable, in order; --list-passes lists them)\n"
    "  --target=ARCH   the target the passes read (shared-memory limit, instructions); default sm_80\n"
    "  --no-wgmma      on sm_90a, dot stays on mma.sync (tilecc --no-wgmma)\n"
    "  --tma           on sm_90a, pipeline-loops may use TMA (tilecc's _tma variant; the kernel\n"
    "                  needs assumptions the launcher checks, assumed(...))\n"
    "  --emit=ir|cuda  print the IR (default) or what the CUDA printer makes of it\n"
    "  --no-verify     do not verify after each pass (to look at what a broken pass produced)\n"
    "Exit status: 0 ok, 1 bad input, 2 bad command line, 3 internal error.\n";

int usage(const char* why) {
  std::fprintf(stderr, "tilecc-opt: error: %s\nusage: tilecc-opt [--target=sm_80|sm_90a] [--no-wgmma] [--tma] [--pass=NAME]... [--emit=ir|cuda] [--no-verify] [--list-passes] FILE|-\n", why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tilecc;
  std::vector<std::string> passes;
  std::string targetName = "sm_80", emit = "ir", file;
  bool verifyEach = true, wgmma = true, tma = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--pass=", 0) == 0) passes.push_back(a.substr(7));
    else if (a.rfind("--target=", 0) == 0) targetName = a.substr(9);
    else if (a.rfind("--emit=", 0) == 0) emit = a.substr(7);
    else if (a == "-h" || a == "--help") {
      std::fputs(kHelp, stdout);
      return 0;
    } else if (a == "--wgmma") wgmma = true;
    else if (a == "--no-wgmma") wgmma = false;
    else if (a == "--tma") tma = true;
    else if (a == "--no-verify") verifyEach = false;  // to look at what a broken pass produced
    else if (a == "--list-passes") {
      for (const auto& p : ir::namedPasses()) std::printf("%-22s %s\n", p.name, p.what);
      return 0;
    } else if (a.size() > 1 && a[0] == '-') return usage(("unknown option '" + a + "'").c_str());
    else if (!file.empty()) return usage("one input file");
    else file = a;
  }
  if (file.empty()) return usage("no input file (use - for standard input)");
  if (emit != "ir" && emit != "cuda") return usage("--emit takes ir or cuda");
  auto target = targetNamed(targetName);
  if (!target) return usage(("unknown target '" + targetName + "' (sm_80, sm_90a)").c_str());
  target->wgmma = target->hopper && wgmma;
  target->tma = target->wgmma && tma;
  std::vector<const ir::NamedPass*> run;
  for (const std::string& p : passes) {
    const ir::NamedPass* found = nullptr;
    for (const auto& np : ir::namedPasses())
      if (p == np.name) found = &np;
    if (!found) return usage(("unknown pass '" + p + "' (--list-passes lists them)").c_str());
    run.push_back(found);
  }
  std::string text;
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
  } else {
    std::ifstream in(file);
    if (!in) {
      std::fprintf(stderr, "tilecc-opt: error: %s: no such file\n", file.c_str());
      return 1;
    }
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::string error;
  auto kernels = ir::parse(text, file, error);
  if (!error.empty()) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  try {
    std::string out;
    for (auto& k : kernels) {
      ir::verify(*k);
      for (const auto* p : run) {
        p->run(*k, *target);
        if (verifyEach) ir::verify(*k);
      }
      if (emit == "ir") {
        out += ir::print(*k, {true});
        continue;
      }
      CudaKernel ck;
      if (!printCudaKernel(*k, *target, ck)) return 1;
      out += printCudaFile(file, k->name + ".h", {ck}, {planLauncher(*k, {launchVariantOf(*k, *target, ck)})});
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
  } catch (const InternalError& e) {
    std::fprintf(stderr, "tilecc-opt: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}
