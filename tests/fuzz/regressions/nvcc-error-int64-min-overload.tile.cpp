// tilecc fuzz finding: b052_k0 of the GPU batch (seed 26), dropped there as an nvcc failure.
// Class: generated CUDA that does not compile
// Signature: nvcc error: more than one instance of overloaded function "tilecc::rem" matches
// Cause: INT64_MIN printed as `(-9223372036854775807ll - 1)`, a long long, beside int64_t (long):
// rem(long long, long long) and rem(long, long) both matched. It is int64_t(...) now, as every
// other int64 constant. Reduced by hand.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void int64_min(const int64_t* x, int64_t* out) {
  auto v = load(x + arange<128>());
  store(out + arange<128>(), v % INT64_MIN + v / INT64_MIN);
}
