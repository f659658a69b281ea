// tilecc command line.
#include "driver/ResourceDir.h"

#include <CLI/CLI.hpp>
#include <clang/Basic/Version.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  CLI::App app{"tilecc: translates tile kernels written in C++ into plain, readable CUDA C++"};
  app.set_version_flag("--version", std::string("tilecc ") + TILECC_VERSION + " (" + clang::getClangFullVersion() + ")");

  std::string resourceDir;
  bool printResourceDir = false;
  app.add_option("--resource-dir", resourceDir, "Clang resource directory (default: that of the Clang 19 tilecc was built with)");
  app.add_flag("--print-resource-dir", printResourceDir, "Print the Clang resource directory tilecc uses and exit");

  CLI11_PARSE(app, argc, argv);

  if (printResourceDir) {
    std::string error;
    const std::string dir = tilecc::findResourceDir(resourceDir, error);
    if (dir.empty()) {
      std::fprintf(stderr, "tilecc: error: %s\n", error.c_str());
      return 1;
    }
    std::printf("%s\n", dir.c_str());
    return 0;
  }

  std::fputs(app.help().c_str(), stdout);
  return 0;
}
