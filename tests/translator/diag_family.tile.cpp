// Kernel family options that cannot be honoured: one located error each, no output written.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

// DIAG-DAG: diag_family.tile.cpp:[[@LINE+2]]:1: error: tune: 'BLOCKS' is not a template parameter of misspelt
template <int BLOCK>
TILECC_KERNEL(tune = (BLOCKS), grid = cdiv(n, BLOCK))
void misspelt(float* out, int n) { store(out + arange<BLOCK>(), 1.0f, arange<BLOCK>() < n); }
template void misspelt<128>(float*, int);

// DIAG-DAG: diag_family.tile.cpp:[[@LINE+2]]:1: error: grid: 'm' is neither an integer parameter of the kernel nor a template parameter with a value
template <int BLOCK>
TILECC_KERNEL(tune = (BLOCK), grid = cdiv(m, BLOCK))
void unknown_name(float* out, int n) { store(out + arange<BLOCK>(), 1.0f, arange<BLOCK>() < n); }
template void unknown_name<128>(float*, int);

// DIAG-DAG: diag_family.tile.cpp:[[@LINE+2]]:1: error: tune_key: 'out' is not an integer parameter of pointer_key
template <int BLOCK>
TILECC_KERNEL(tune = (BLOCK), tune_key = (out), grid = cdiv(n, BLOCK))
void pointer_key(float* out, int n) { store(out + arange<BLOCK>(), 1.0f, arange<BLOCK>() < n); }
template void pointer_key<128>(float*, int);

// DIAG-DAG: diag_family.tile.cpp:[[@LINE+2]]:1: error: a kernel family states its grid: grid = (x [, y [, z]]) in terms of its parameters
template <int BLOCK>
TILECC_KERNEL(tune = (BLOCK))
void no_grid(float* out, int n) { store(out + arange<BLOCK>(), 1.0f, arange<BLOCK>() < n); }
template void no_grid<128>(float*, int);

// DIAG-DAG: diag_family.tile.cpp:[[@LINE+1]]:1: error: tune: a kernel family is the instantiations of a kernel template; 'not_a_template' is not a template
TILECC_KERNEL(tune = (n), grid = n)
void not_a_template(float* out, int n) { store(out + arange<128>(), 1.0f, arange<128>() < n); }

// DIAG-DAG: diag_family.tile.cpp:[[@LINE+2]]:1: error: grid: a grid has at most three dimensions
template <int BLOCK>
TILECC_KERNEL(tune = (BLOCK), grid = (1, 2, 3, 4))
void four_dims(float* out, int n) { store(out + arange<BLOCK>(), 1.0f, arange<BLOCK>() < n); }
template void four_dims<128>(float*, int);

// DIAG-DAG: diag_family.tile.cpp:[[@LINE+2]]:1: error: grid: min takes two arguments
template <int BLOCK>
TILECC_KERNEL(tune = (BLOCK), grid = min(n))
void bad_call(float* out, int n) { store(out + arange<BLOCK>(), 1.0f, arange<BLOCK>() < n); }
template void bad_call<128>(float*, int);

