// The translation pipeline, from files to outputs.
#pragma once

#include "ir/InternalError.h"

#include <string>
#include <vector>

namespace tilecc {

struct DriverOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string header;
  std::string emit = "cuda";
  bool check = false;
  std::vector<std::string> archs;
  bool wgmma = true;  // dot on wgmma for sm_90a where it fits (--no-wgmma: mma.sync)
  bool tma = true;    // the _tma variant on sm_90a where TMA copies something (--no-tma: none)
  std::string compileDb;
  std::string depfile;
  std::string depfileTarget;  // the rule's target; default: the .cu
  bool lineDirectives = false;
  std::string lineDirectivesRelativeTo;  // default: the .cu's directory
  std::string resourceDir;
  std::string runtimeInclude;
  std::vector<std::string> extraArgs;
  std::vector<std::string> tuningTables;  // --tuning-table: family dispatch (codegen/Family.h)
};

/// Returns the process exit status (0, 1 or 2); throws InternalError on tilecc bugs.
int runDriver(const DriverOptions& o);

}  // namespace tilecc
