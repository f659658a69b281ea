// Registers a thread needs for the tiles a kernel keeps live at once: an estimate from the
// layouts (elements per thread) and the values' lifetimes, to warn before nvcc spills or takes
// minutes over a tile no thread can hold. Views that the printer folds into index arithmetic
// (splat, arange, broadcast, expand_dims, trans, reshape, hints) hold no registers of their own.
#pragma once

#include "ir/IR.h"

#include <string>
#include <vector>

namespace tilecc::ir {

struct RegisterEstimate {
  int registers = 0;          // 32-bit registers per thread at the peak
  unsigned peakLine = 0;      // source line of the op where the peak is reached
  /// The largest tiles live at the peak (name from the source, registers), largest first.
  std::vector<std::pair<std::string, int>> largest;
};

/// For a kernel with layouts assigned (the layout or GPU level).
RegisterEstimate estimateRegisters(const Kernel& k);

/// "about 96 registers per thread for tiles (at line 12: acc 64, x 16)".
std::string describe(const RegisterEstimate& e);

/// A thread's registers (sm_80, sm_90): above this, values spill to local memory.
constexpr int kRegistersPerThread = 255;
/// What a thread of a program of `numWarps` warps has: 255, or less where the program's
/// threads share the 65536 registers of an SM (above 8 warps: 128 at 16 warps).
constexpr int registersPerThread(int numWarps) {
  return numWarps > 0 && 65536 / (32 * numWarps) < kRegistersPerThread ? 65536 / (32 * numWarps) : kRegistersPerThread;
}
/// Far beyond it (16×), the generated code is not worth building: nvcc takes minutes and the
/// kernel runs from local memory. tilecc rejects it with advice instead.
constexpr int kRegisterRefusal = 16 * kRegistersPerThread;

}  // namespace tilecc::ir
