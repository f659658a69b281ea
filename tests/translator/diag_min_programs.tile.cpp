// min_programs_per_sm out of range: 1 to 32, and no more programs than 2048 threads hold. Each
// gets one located error, and no kernel is written.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

// DIAG-DAG: diag_min_programs.tile.cpp:[[@LINE+1]]:1: error: min_programs_per_sm must be from 1 to 32, got 0
TILECC_KERNEL(num_warps = 4, min_programs_per_sm = 0)
void none(float* out) { store(out + arange<128>(), 1.0f); }

// DIAG-DAG: diag_min_programs.tile.cpp:[[@LINE+1]]:1: error: min_programs_per_sm = 9 programs of 256 threads exceed the 2048 threads an SM holds
TILECC_KERNEL(min_programs_per_sm = 9, num_warps = 8)
void too_many(float* out) { store(out + arange<256>(), 1.0f); }

// DIAG-DAG: diag_min_programs.tile.cpp:[[@LINE+2]]:1: error: min_programs_per_sm = 3 programs of 1024 threads exceed the 2048 threads an SM holds
template <int P>
TILECC_KERNEL(num_warps = 32, min_programs_per_sm = P)
void from_template(float* out) { store(out + arange<1024>(), 1.0f); }
template void from_template<3>(float*);
