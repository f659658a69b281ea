// BLOCK_SIZE passed as a run-time argument (Triton's tl.constexpr parameter).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out, int n, int BLOCK_SIZE) {
  auto offs = program_id(0) * BLOCK_SIZE + arange<BLOCK_SIZE>();  // HERE
  store(out + offs, load(x + offs, offs < n), offs < n);
}
