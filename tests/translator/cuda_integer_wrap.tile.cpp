// Signed 32- and 64-bit tile arithmetic wraps (two's complement, the contract): + - * and
// negation are printed through tilecc::wrap_* (unsigned arithmetic; abs through inline PTX), never as C++ signed
// operators, whose overflow is undefined and which nvcc optimises on. int8 is computed in int and
// narrowed; unsigned and floating tiles, and scalars (C++ in the host twin too), keep operators.
// ARGS: --arch sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void wraps(const int64_t* x, int64_t* y, const int* p, int* q, unsigned* u, int n) {
  auto i = arange<128>();
  store(y + i, abs(load(x + i) - full<int64_t, 128>(-128)));
  store(q + i, -(load(p + i) * 3));
  store(u + i, cast<unsigned>(i) * 5u + 1u);
  store(q + 128 + i, load(p + i), i < n * 2 + 1);
}
// CHECK: = tilecc::wrap_sub(
// abs wraps too (|MIN| = MIN), through inline PTX ptxas does not take for an absolute value.
// CHECK: = tilecc::wrap_abs(
// CHECK: = tilecc::wrap_mul(
// CHECK: = tilecc::wrap_neg(
// CHECK-NOT: tilecc::wrap_mul(5u
// CHECK: n * 2
