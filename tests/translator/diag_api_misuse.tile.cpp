// Misuse of the API is a C++ error at the call site naming the broken rule; through tilecc
// too (Clang's own diagnostics), with nothing written and exit status 1.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
void atomics_on_bytes(int8_t* p) {
  // DIAG-DAG: diag_api_misuse.tile.cpp:[[@LINE+1]]:3: error: no matching function for call to 'atomic_add'
  atomic_add(p + arange<16>(), full<int8_t, 16>(1));
}

TILECC_KERNEL()
void small_dot(const half* a, float* c) {
  auto t = load(a + col(arange<8>()) * 16 + row(arange<16>()));
  // DIAG-DAG: diag_api_misuse.tile.cpp:[[@LINE+1]]:12: error: no matching function for call to 'dot'
  auto r = dot(t, trans(t));
  store(c + col(arange<8>()) * 8 + row(arange<8>()), r);
}

TILECC_KERNEL()
void mixed(const float* x, const half* h, float* out) {
  // DIAG-DAG: diag_api_misuse.tile.cpp:[[@LINE+1]]:35: error: invalid operands to binary expression ('tile<float, 16>' and 'tile<half, 16>')
  auto s = load(x + arange<16>()) + load(h + arange<16>());
  store(out + arange<16>(), s);
}

// DIAG-DAG: does not satisfy 'atomic_add_element'
// DIAG-DAG: because 'dot_extents_at_least_16<{{.*}}>' evaluated to false
// DIAG-DAG: because 'tile_element_types_match<{{.*}}>' evaluated to false
