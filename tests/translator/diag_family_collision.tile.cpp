// A kernel family whose launcher would have the name of another kernel's launcher: an error
// naming both, and no output.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

// DIAG: error: the kernel family twice_float (twice<float, BLOCK>) would declare launch_twice_float, which is also the launcher of twice_float; rename one of them
template <class T, int BLOCK>
TILECC_KERNEL(tune = (BLOCK), grid = cdiv(n, BLOCK))
void twice(T* out, int n) { store(out + arange<BLOCK>(), T(2), arange<BLOCK>() < n); }
template void twice<float, 128>(float*, int);
TILECC_KERNEL()
void twice_float(float* out, int n) { store(out + arange<128>(), 2.0f, arange<128>() < n); }
