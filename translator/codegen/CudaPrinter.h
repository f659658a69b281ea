// Prints CUDA C++ for kernels whose tile values have layouts: each thread holds a register
// array per tile (indexed by unrolled loops over constant trip counts), shared memory serves
// layout conversions and cross-warp reductions, barriers separate its writers and readers.
// Text is produced only here and in the launcher printer.
#pragma once

#include "analysis/Layout.h"
#include "ir/IR.h"

#include <functional>
#include <string>
#include <vector>

namespace tilecc {

struct CudaKernel {
  std::string name;
  std::string sourceName;
  std::string kernelText;    // the __global__ function with its header comment
  std::string launcherDecl;  // cudaError_t launch_<name>(dim3 grid, cudaStream_t stream, ...)
  std::string launcherBody;
  std::string launcherChecks;     // promise and empty-grid checks
  std::string launchLine;         // kernel<<<...>>>(...);
  std::string variantCondition;   // for a specialised variant: when the launcher may pick it
  std::string report;             // --emit=report: layouts, access widths and why, shared memory
  bool usesHalf = false, usesBf16 = false;
};

/// Adds a specialised variant's kernel to `general` and makes the launcher pick it when the
/// arguments meet its assumptions (checked at run time).
void addSpecialisedVariant(CudaKernel& general, const CudaKernel& specialised);

/// False when the kernel uses something the CUDA backend cannot print yet (reported as
/// file:line:col: error: ...).
bool printCudaKernel(const ir::Kernel& k, const std::vector<ir::Layout>& layouts, CudaKernel& out);

/// --line-directives: #line directives that map kernel code to the tile source (for nvcc's
/// errors and the debugger's line table) and everything else back to the .cu itself.
struct LineDirectives {
  bool enabled = false;
  std::string outputName;                                     // how the .cu names itself
  std::function<std::string(const std::string&)> sourcePath;  // a source file as the .cu names it
};

/// The .cu file: kernels and launcher definitions. `source` and `header` are file names
/// (no directories: generated files carry no paths beyond what `lines` names).
std::string printCudaFile(const std::string& source, const std::string& header, const std::vector<CudaKernel>& ks,
                          const LineDirectives& lines = {});

/// The launcher header, includable by a host C++ compiler without nvcc.
std::string printHeaderFile(const std::string& source, const std::vector<CudaKernel>& ks);

}  // namespace tilecc
