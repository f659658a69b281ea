// The report states what min_programs_per_sm leaves each thread.
// ARGS: --emit=report -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel centre (centre), 4 warps, for sm_80
// CHECK: registers: about 8 registers per thread for tiles
// CHECK-NEXT: programs per SM: at least 12 (min_programs_per_sm), so at most 40 registers per thread (ptxas spills beyond)
TILECC_KERNEL(num_warps = 4, min_programs_per_sm = 12)
void centre(const float* x, float* y, int n) {
  auto cols = arange<1024>();
  auto v = load(x + program_id(0) * n + cols, cols < n, 0.0f);
  store(y + program_id(0) * n + cols, v - sum(v) / n, cols < n);
}
