// A helper with a non-const reference parameter returns only at its end (an early return would
// leave the caller's variable with a value per path): a located error, no output.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

// The error is at the return, with a note at the parameter.
// DIAG: diag_reference_params.tile.cpp:[[@LINE+3]]:14: error: a helper with a non-const reference parameter ('acc') may return only at its end
// DIAG: diag_reference_params.tile.cpp:[[@LINE+1]]:28: note: 'acc' is declared here
void bump(tile<float, 64>& acc, int n) {
  if (n > 4) return;
  acc = acc + 1.0f;
}

TILECC_KERNEL(num_warps = 4)
void early(float* out, int n) {
  auto acc = zeros<float, 64>();
  bump(acc, n);
  store(out + arange<64>(), acc);
}
