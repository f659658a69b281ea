#include "driver/ResourceDir.h"

#include <clang/Driver/Driver.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace tilecc {

std::string findResourceDir(const std::string& override, std::string& error) {
  std::string dir = override;
  if (dir.empty())
    if (const char* env = std::getenv("TILECC_RESOURCE_DIR")) dir = env;
  if (dir.empty()) dir = clang::driver::Driver::GetResourcesPath(TILECC_CLANG_EXECUTABLE);

  llvm::SmallString<256> stddef(dir);
  llvm::sys::path::append(stddef, "include", "stddef.h");
  if (!llvm::sys::fs::exists(stddef)) {
    error = "Clang resource directory '" + dir +
            "' has no include/stddef.h; install clang-19 or pass --resource-dir / set TILECC_RESOURCE_DIR";
    return {};
  }
  return dir;
}

}  // namespace tilecc
