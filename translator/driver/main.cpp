// tilecc command line: translates kernel files into CUDA (.cu) and a launcher header (.h).
//
// Exit status: 0 success; 1 errors in the input (reported as file:line:col: error: ...) or,
// with --check, stale outputs; 2 bad command line; 3 internal error (a tilecc bug).
#include "driver/Output.h"
#include "driver/Pipeline.h"
#include "driver/ResourceDir.h"

#include <CLI/CLI.hpp>
#include <clang/Basic/Version.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

/// tilecc's runtime headers: installed beside the binary (prefix/include), else the source tree.
std::string runtimeInclude(const char* argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void*>(&runtimeInclude));
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(dir, "include");
  llvm::SmallString<256> probe(dir);
  llvm::sys::path::append(probe, "tilecc", "tile.hpp");
  if (llvm::sys::fs::exists(probe)) return std::string(dir);
  return TILECC_SOURCE_RUNTIME_INCLUDE;
}

}  // namespace

int main(int argc, char** argv) {
  // Everything after `--` goes to the parser (include paths, defines).
  std::vector<std::string> extraArgs;
  int cliArgc = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      for (int j = i + 1; j < argc; ++j) extraArgs.emplace_back(argv[j]);
      cliArgc = i;
      break;
    }

  CLI::App app{"tilecc: translates tile kernels written in C++ into plain, readable CUDA C++"};
  app.set_version_flag("--version", std::string("tilecc ") + TILECC_VERSION + " (" + clang::getClangFullVersion() + ")");
  app.footer(
      "Arguments after -- go to the C++ parser (e.g. -- -I include -DNAME=1).\n"
      "Exit status: 0 ok, 1 errors in the input or stale outputs (--check), 2 bad command line, 3 internal error.");

  tilecc::DriverOptions o;
  std::string resourceDir;
  bool printResourceDir = false;
  app.add_option("inputs", o.inputs, "Kernel files (name.tile.cpp)");
  app.add_option("-o,--output", o.output, "Output .cu file ('-' for stdout); default: <name>.cu in the current directory");
  app.add_option("--header", o.header, "Launcher header; default: the output with .h");
  app.add_option("--emit", o.emit,
                 "What to write: cuda (default), ir (Tile IR after lowering), ir-layout (after layout assignment), "
                 "gpu-ir (the GPU level: shared memory, async copies, mma, barriers), "
                 "report (layouts, access widths and what limited them, shared memory, barriers)")
      ->check(CLI::IsMember({"cuda", "ir", "ir-layout", "gpu-ir", "report"}));
  app.add_flag("--check", o.check, "Compare with the existing outputs, print a diff, exit 1 when stale; writes nothing");
  app.add_option("--arch", o.archs, "Target architectures the generated code must build for (sm_80, sm_90a, ...)")
      ->delimiter(',')
      ->allow_extra_args(false);  // `--arch sm_90a kernel.tile.cpp`: the file is an input
  bool noWgmma = false, wgmma = false;
  app.add_flag("--no-wgmma", noWgmma,
               "On sm_90a, keep dot on mma.sync as on sm_80 (by default it runs on wgmma there where it fits)");
  app.add_flag("--wgmma", wgmma)->group("");  // the default; accepted for builds written when it was opt-in
  bool noTma = false;
  app.add_flag("--no-tma", noTma,
               "On sm_90a, keep the loads that feed wgmma on cp.async (by default they are TMA copies where their "
               "pointers and mask form a box; the launcher checks the arguments)");
  app.add_option("--tuning-table", o.tuningTables,
                 "A tuning table (repeatable): kernel families dispatch to the configurations it names")
      ->type_name("FILE")
      ->allow_extra_args(false);  // one file per --tuning-table: the inputs follow
  app.add_option("-p", o.compileDb, "Directory with compile_commands.json (instead of args after --)");
  app.add_option("--depfile", o.depfile, "Write a Makefile depfile of every file read (sorted)");
  app.add_option("--depfile-target", o.depfileTarget, "Target named in the depfile (default: the .cu output)");
  app.add_flag("--line-directives", o.lineDirectives,
               "Emit #line directives mapping kernel code to the tile source (for nvcc's errors and the "
               "debugger's line table), with relative paths");
  app.add_option("--line-directives-relative-to", o.lineDirectivesRelativeTo,
                 "Directory the #line paths are relative to: the one nvcc runs in (default: the .cu's directory)");
  app.add_option("--resource-dir", resourceDir, "Clang resource directory (default: that of the Clang 19 tilecc was built with)");
  app.add_flag("--print-resource-dir", printResourceDir, "Print the Clang resource directory tilecc uses and exit");

  try {
    app.parse(cliArgc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // One line naming the problem, then where to look: never the usage text alone.
    std::fprintf(stderr, "tilecc: error: %s\nRun 'tilecc --help' for the options.\n", e.what());
    return 2;
  }
  o.wgmma = !noWgmma;
  o.tma = !noTma;

  std::string error;
  o.resourceDir = tilecc::findResourceDir(resourceDir, error);
  if (o.resourceDir.empty()) {
    std::fprintf(stderr, "tilecc: error: %s\n", error.c_str());
    return 2;
  }
  if (printResourceDir) {
    std::printf("%s\n", o.resourceDir.c_str());
    return 0;
  }
  if (o.inputs.empty()) {
    std::fprintf(stderr, "tilecc: error: no input files\nUsage: tilecc [OPTIONS] kernel.tile.cpp... [-- parser arguments]; "
                         "run 'tilecc --help' for the options.\n");
    return 2;
  }
  o.extraArgs = extraArgs;
  o.runtimeInclude = runtimeInclude(argv[0]);

  try {
    return tilecc::runDriver(o);
  } catch (const tilecc::InternalError& e) {
    std::fprintf(stderr, "tilecc: internal error: %s\n(this is a tilecc bug; please report it with the input)\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilecc: internal error: %s\n(this is a tilecc bug; please report it with the input)\n", e.what());
    return 3;
  }
}
