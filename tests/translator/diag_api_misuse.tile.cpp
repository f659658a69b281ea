// Misuse of the API is a C++ error whose first line names the broken rule, followed by the
// instantiation note that points at the call site; through tilecc too (Clang's own
// diagnostics), with nothing written and exit status 1.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL()
void atomics_on_bytes(int8_t* p) {
  // DIAG: error: static assertion failed: atomic_add_element: atomic_add exists for
  // DIAG: diag_api_misuse.tile.cpp:[[@LINE+1]]:3: note: in instantiation of function template specialization 'tilecc::atomic_add<
  atomic_add(p + arange<16>(), full<int8_t, 16>(1));
}

TILECC_KERNEL()
void small_dot(const half* a, float* c) {
  auto t = load(a + col(arange<8>()) * 16 + row(arange<16>()));
  // DIAG: error: static assertion failed: dot_extents_at_least_16:
  // DIAG: diag_api_misuse.tile.cpp:[[@LINE+1]]:12: note: in instantiation of function template specialization 'tilecc::dot<
  auto r = dot(t, trans(t));
  store(c + col(arange<8>()) * 8 + row(arange<8>()), r);
}

TILECC_KERNEL()
void mixed(const float* x, const half* h, float* out) {
  // DIAG: error: static assertion failed: tile_element_types_match:
  // DIAG: diag_api_misuse.tile.cpp:[[@LINE+1]]:35: note: in instantiation of function template specialization 'tilecc::operator+<tilecc::tile<float, 16>, tilecc::tile<tilecc::half, 16>>'
  auto s = load(x + arange<16>()) + load(h + arange<16>());
  store(out + arange<16>(), s);
}
