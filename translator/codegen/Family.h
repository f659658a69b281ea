// Kernel families: one launcher per family that computes the grid of the configuration it picks
// (by the device's architecture, then the shape key's nearest entry of the tuning table), and
// the tuning table's text format, read at translation time.
#pragma once

#include "codegen/CudaPrinter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilecc {

/// One line of a tuning table:
///   <family> sm_<arch> <key>=<value>... -> <config> [<median ms>]
/// e.g. `matmul_half_false_none sm_90 M=4096 N=4096 K=4096 -> BM=128,BN=256,BK=64 0.1810`.
struct TuningEntry {
  std::string family;
  int arch = 0;  // sm_90 and sm_90a: 90
  std::vector<std::pair<std::string, std::int64_t>> key;
  std::string config;
  std::string ms;  // as written (comments only)
  std::string where;  // file:line (messages)
};

struct TuningTable {
  std::vector<std::string> paths;
  std::vector<TuningEntry> entries;
};

/// Parses one table's text; false with `error` ("path:line: message") on a malformed line.
/// Blank lines and `#` comments are skipped.
bool parseTuningTable(const std::string& text, const std::string& path, TuningTable& out, std::string& error);

/// The families among a file's launchers (launchers whose kernel has TuneInfo), in the order of
/// their first member; members in source order (the first is the default configuration).
struct FamilyPlan {
  std::string name;
  std::string source;
  std::vector<const LauncherPlan*> members;
};
std::vector<FamilyPlan> planFamilies(const std::vector<LauncherPlan>& launchers);

/// The family's definitions for the .cu (dispatch from `table`'s entries for this family) and
/// declarations for the header. False with `error` where the table names a configuration or
/// key the family does not have, or members disagree on their parameters.
bool printFamily(const FamilyPlan& f, const TuningTable& table, std::string& cu, std::string& header, std::string& error);

}  // namespace tilecc
