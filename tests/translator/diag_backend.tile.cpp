// dot() lowers to IR but the CUDA backend does not print it yet: a located error, no output.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
void mm(const half* a, const half* b, float* c) {
  auto i = arange<16>();
  auto x = load(a + col(i) * 16 + row(i));
  auto y = load(b + col(i) * 16 + row(i));
  // DIAG: diag_backend.tile.cpp:[[@LINE+1]]:35: error: dot() is not supported by the CUDA backend yet
  store(c + col(i) * 16 + row(i), dot(x, y));
}
