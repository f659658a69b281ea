// A tile no thread can hold at all (4096x4096 floats on one warp: half a million registers per
// thread) is an error with advice, at once, instead of a .cu nvcc would compile for minutes.
// ARGS: -o huge.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 1)
void huge(const float* x, float* y) {
  auto offs = col(arange<4096>()) * 4096 + row(arange<4096>());
  store(y + offs, load(x + offs) + 1.0f);
}
// DIAG: diag_registers_refused.tile.cpp:[[@LINE-4]]:6: error: kernel 'huge' needs about {{[0-9]+}} registers per thread for tiles {{.*}}: nvcc would take minutes and the kernel would run from local memory; use more warps (num_warps = 1 now, up to 32) or smaller tiles
