// tilecc fuzz finding: nvcc-warning-001 (campaign seed 77, 2026-11-25), reduced by hand.
// Class: nvcc warning on the generated CUDA (an error under -Werror all-warnings)
// Signature: nvcc warning #550-D: variable "_" was set but never used
// Observed (before the fix): `int offs_1[1];  // ..., if result` assigned in the branch that
// does not return and never read: an if whose other branch returns kept its unused result,
// because dead results were dropped only from ifs where every branch yields.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void k(const int* in, int* out, int n, int flag) {
  auto offs = arange<128>();
  store(out + arange<128>(), offs);
  if (flag > 0) {
    for (int t = 0; t < n; ++t) {
      offs = offs - load(in + t * 128 + arange<128>());
      store(out + t * 128 + arange<128>(), arange<128>());
    }
    return;
  }
  store(out + 128 + arange<128>(), arange<128>());
}
