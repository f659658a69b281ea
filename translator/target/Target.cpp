#include "target/Target.h"

#include <algorithm>
#include <cctype>

namespace tilecc {

namespace {

struct ArchFacts {
  const char* arch;
  int sharedLimit;  // cudaDevAttrMaxSharedMemoryPerBlockOptin
};

// From the CUDA C++ Programming Guide's table of compute capabilities.
const ArchFacts kArchs[] = {
    {"sm_80", 163 * 1024},  {"sm_86", 99 * 1024},   {"sm_87", 163 * 1024},  {"sm_89", 99 * 1024},
    {"sm_90", 227 * 1024},  {"sm_90a", 227 * 1024}, {"sm_100", 227 * 1024}, {"sm_100a", 227 * 1024},
    {"sm_103", 227 * 1024}, {"sm_103a", 227 * 1024}, {"sm_120", 99 * 1024}, {"sm_120a", 99 * 1024},
};

Target sm80() {
  Target t;
  t.name = "sm_80";
  t.computeCapability = 80;
  return t;
}

Target sm90a() {
  Target t;
  t.name = "sm_90a";
  t.computeCapability = 90;
  t.hopper = true;
  t.guard = "defined(__CUDA_ARCH_FEAT_SM90_ALL)";
  return t;
}

}  // namespace

std::optional<int> sharedLimitOf(const std::string& arch) {
  for (const auto& a : kArchs)
    if (arch == a.arch) return a.sharedLimit;
  return std::nullopt;
}

std::vector<Target> targetsFor(const std::vector<std::string>& archs, std::string& error) {
  std::optional<Target> base, hopper;
  for (const std::string& a : archs) {
    const auto limit = sharedLimitOf(a);
    if (!limit) {
      error = "--arch " + a + ": unknown architecture (tilecc knows sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, "
              "sm_100a, sm_103, sm_103a, sm_120, sm_120a)";
      return {};
    }
    std::optional<Target>& slot = a == "sm_90a" ? hopper : base;
    if (!slot) {
      slot = a == "sm_90a" ? sm90a() : sm80();
      slot->sharedLimit = *limit;
    }
    slot->archs.push_back(a);
    slot->sharedLimit = std::min(slot->sharedLimit, *limit);
  }
  std::vector<Target> out;
  if (hopper) out.push_back(*hopper);
  if (base) out.push_back(*base);
  return out;
}

std::optional<Target> targetNamed(const std::string& name) {
  const auto limit = sharedLimitOf(name);
  if (!limit || (name != "sm_80" && name != "sm_90a")) return std::nullopt;
  Target t = name == "sm_90a" ? sm90a() : sm80();
  t.archs = {name};
  t.sharedLimit = *limit;
  return t;
}

}  // namespace tilecc
