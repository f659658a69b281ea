// Contract v1 misuse the translator judges (the host twin compiles all of it): each gets one
// located error, and no kernel is written (warp_specialize's warning: cuda_warp_specialize).
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

int kWarps = 4;  // not constexpr

// DIAG-DAG: diag_v1.tile.cpp:[[@LINE+1]]:1: error: the value of num_warps ('kWarps') is not an integer constant expression: 'kWarps' is not constexpr; option values are built from literals, true/false, the kernel's template parameters and constexpr variables
TILECC_KERNEL(num_warps = kWarps)
void option_from_a_variable(float* out) { store(out + arange<128>(), 1.0f); }

// DIAG-DAG: diag_v1.tile.cpp:[[@LINE+2]]:1: error: the value of num_stages ('W / (W - 4)') is not an integer constant expression: division by zero; option
template <int W>
TILECC_KERNEL(num_warps = W, num_stages = W / (W - 4))
void option_divides_by_zero(float* out) { store(out + arange<128>(), 1.0f); }
template void option_divides_by_zero<4>(float*);

// DIAG-DAG: diag_v1.tile.cpp:[[@LINE+1]]:1: error: the value of warp_specialize ('kNoSuchName && true') is not an integer constant expression: 'kNoSuchName' is not a template parameter of the kernel or a constexpr variable; option
TILECC_KERNEL(warp_specialize = kNoSuchName && true)
void option_unknown_name(float* out) { store(out + arange<128>(), 1.0f); }

TILECC_KERNEL(num_warps = 2)
void layout_threads(const float* x, float* out) {
  // DIAG-DAG: diag_v1.tile.cpp:[[@LINE+1]]:12: error: the layout compose<spatial<4>, spatial<32>> cannot be used here: the mapping has 128 threads; the kernel has num_warps = 2, 64 threads
  auto t = with_layout<compose<spatial<4>, spatial<32>>>(load(x + arange<128>()));
  store(out + arange<128>(), t);
}

TILECC_KERNEL(num_warps = 2)
void layout_nesting(const float* x, float* out) {
  // DIAG-DAG: diag_v1.tile.cpp:[[@LINE+1]]:12: error: the layout compose<spatial<2>, spatial<4>, repeat<2>, spatial<8>> cannot be used here: along dimension 0, lanes come inside a thread's repeat; the translator's layouts nest, per dimension, repeats of the whole, warps, repeats within a warp, lanes, then each thread's elements
  auto t = with_layout<compose<spatial<2>, spatial<4>, repeat<2>, spatial<8>>>(load(x + arange<128>()));
  store(out + arange<128>(), t);
}

const float* table;
inline float lookup(float a, float b) { return a + load(table + static_cast<int>(b)); }
TILECC_KERNEL()
void combine_loads(const float* x, float* out) {
  // DIAG-DAG: diag_v1.tile.cpp:[[@LINE-3]]:52: error: a combine function computes with its two elements only; 'tilecc::load' cannot be used in it
  store(out + arange<64>(), cumsum(load(x + arange<64>())) + scan(load(x + arange<64>()), lookup));
}

// C++ picks operator()(int, int) for int8_t elements (a promotion beats a conversion); the
// translator asks for one operator() taking the element type itself.
struct TwoWays {
  int8_t operator()(int a, int b) const { return static_cast<int8_t>(a + b); }
  int8_t operator()(double a, double b) const { return static_cast<int8_t>(a - b); }
};
TILECC_KERNEL()
void ambiguous_functor(const int8_t* x, int8_t* out) {
  // DIAG-DAG: diag_v1.tile.cpp:[[@LINE+1]]:58: error: cannot tell which call operator of 'TwoWays' combines two elements; give it one operator()(T, T) for the tile's element type T
  store(out + arange<64>(), scan(load(x + arange<64>()), TwoWays{}));
}

inline float no_return(float a) {
  if (a > 0.0f) return a;
// DIAG-DAG: diag_v1.tile.cpp:[[@LINE+1]]:1: error: 'no_return' can reach its end without returning a value
}
TILECC_KERNEL()
void falls_off(float* out) { store(out, no_return(1.0f)); }

// A hint of another value is a change of the induction variable.
TILECC_KERNEL()
void hints_other_value(float* out, int n) {
  for (int j = 0; j < n; j += 16) {
    // DIAG-DAG: diag_v1.tile.cpp:[[@LINE+1]]:5: error: the loop induction variable 'j' may change only in the loop's increment
    j = multiple_of(j + 16, 16);
    store(out + j, 1.0f);
  }
}
