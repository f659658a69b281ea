// The textual form of Tile IR, both levels (`tilecc --emit=ir|ir-layout|gpu-ir`, and what
// `tilecc-opt` reads and writes). Parser.h reads it back: print(parse(print(k))) == print(k).
//
//   kernel @name "source name" num_warps=4 num_stages=3 [level=gpu target=sm_80 shared=N]
//       (%p: ptr<const f32> aligned(16), %n: i32) {
//     #L0 = blocked{spt=[4] tpw=[32] wpc=[4] order=[0]}
//     %pid = program_id [axis=0] : i32
//     %x = load %ptrs, %mask [vec=4, axis=0] : tile<1024xf32> #L0
//     for %k = %lb lt %ub step %st iter(%acc = %init) -> (%acc_1: tile<64xf32> #L0) {
//       ...
//       yield %v
//     }
//   }
#pragma once

#include "ir/IR.h"

#include <string>

namespace tilecc::ir {

struct PrintOptions {
  bool layouts = false;  // annotate tile values with their layouts (#L<n>) and list the table
};

std::string print(const Kernel& k, PrintOptions opts = {});

/// A float constant as the IR prints it (round-trips through the parser, NaN payloads too).
std::string printFloat(double f);

}  // namespace tilecc::ir
