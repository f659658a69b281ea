// C++ errors are Clang's own diagnostics; tilecc stops there, writes nothing, exits 1.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
void k(float* out) {
  // DIAG: diag_cxx_error.tile.cpp:[[@LINE+1]]:7: error: value of type 'tile<bool, 4>' is not contextually convertible to 'bool'
  if (arange<4>() < 2) store(out, 1.0f);
}
