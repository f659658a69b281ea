// Constructs outside the language: each kernel gets one error at the construct, no kernel
// is written, and the exit status is 1.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

int counter;
float opaque(float);
struct Base {
  virtual float f(float x) const { return x; }
};
// DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:43: error: recursion is not supported in kernels ('fact' calls itself)
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

TILECC_KERNEL()
void uses_while(float* out, int n) {
  int i = 0;
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:3: error: only 'for' loops with an integer induction variable are supported in kernels
  while (i < n) i += 1;
  store(out, 1.0f);
}

TILECC_KERNEL()
void uses_break(float* out, int n) {
  for (int i = 0; i < n; ++i) {
    // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:5: error: 'break' and 'continue' are not supported in kernels; use masks or 'if'
    break;
  }
  store(out, 1.0f);
}

TILECC_KERNEL()
void uses_recursion(int* out) {
  store(out, fact(5));
}

TILECC_KERNEL()
void uses_virtual(float* out) {
  Base b;
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE-1]]:8: error: type 'Base' is not supported in kernel code
  store(out, b.f(1.0f));
}

TILECC_KERNEL()
void uses_no_body(float* out) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:14: error: 'opaque' has no body visible here; kernels may call only functions defined in the translated sources, the tilecc API and <cmath>
  store(out, opaque(1.0f));
}

TILECC_KERNEL()
void uses_global(int* out) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:14: error: global variable 'counter' is not a constant; kernels may use only constexpr globals
  store(out, counter);
}

TILECC_KERNEL()
void uses_address(int* out) {
  int x = 3;
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:9: error: taking addresses is not supported in kernels
  store(&x, 4);
  store(out, x);
}

TILECC_KERNEL()
void uses_new(float* out) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:14: error: 'new' and 'delete' are not supported in kernels
  float* p = new float;
  store(p, 1.0f);
}

TILECC_KERNEL()
void uses_throw(float* out, int n) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:14: error: exceptions are not supported in kernels
  if (n < 0) throw 1;
  store(out, 1.0f);
}

TILECC_KERNEL()
void uses_goto(float* out) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:3: error: 'goto' is not supported in kernels
  goto done;
done:
  store(out, 1.0f);
}

TILECC_KERNEL()
void uses_asm(float* out) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:3: error: inline assembly is not supported in kernels
  asm volatile("");
  store(out, 1.0f);
}

TILECC_KERNEL()
void uses_lambda(float* out) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:12: error: lambdas are not supported in kernels; use a helper function
  auto f = [](float x) { return x; };
  store(out, f(1.0f));
}

// DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+2]]:37: error: kernel parameter 't' has type 'tile<float, 16>'; kernel parameters are bool, int, unsigned, int64_t, float or pointers to element types
TILECC_KERNEL()
void tile_parameter(tile<float, 16> t, float* out) {
  store(out + arange<16>(), t);
}

// DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+2]]:42: error: kernel parameter 's' is a double; use float
TILECC_KERNEL()
void double_parameter(float* out, double s) {
  store(out, s);
}

TILECC_KERNEL()
void changes_iv(float* out, int n) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+2]]:31: error: the loop induction variable 'i' may change only in the loop's increment (a hint that keeps its value is allowed: 'i = multiple_of(i, 16);')
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:12: note: 'i' is declared here
  for (int i = 0; i < n; ++i) i += 2;
  store(out, 1.0f);
}

TILECC_KERNEL()
void bound_of_itself(float* out, int s0) {
  // The loop's own `s0` hides the parameter in its condition: not a bound.
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:25: error: the loop bound and step are computed once, before the first iteration: they may not use the induction variable 's0' (rename it if another 's0' was meant)
  for (int s0 = 0; s0 < s0; s0 += 16) store(out, 1.0f);
}

TILECC_KERNEL()
void moving_bound(float* out, int n) {
  // DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:23: error: the loop bound and step must not change inside the loop ('n' does)
  for (int i = 0; i < n; ++i) n -= 1;
  store(out, 1.0f);
}

// DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:1: error: num_warps must be a power of two from 1 to 32, got 3
TILECC_KERNEL(num_warps = 3)
void bad_warps(float* out) { store(out, 1.0f); }

// DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+1]]:1: error: unknown kernel option 'warps' (options: num_warps, num_stages, warp_specialize, min_programs_per_sm, tune, tune_key, grid)
TILECC_KERNEL(warps = 4)
void bad_option(float* out) { store(out, 1.0f); }

// DIAG-DAG: diag_rejected.tile.cpp:[[@LINE+2]]:22: warning: template kernel 'never' has no explicit instantiation definition in this file, so no kernel is generated
template <int N>
TILECC_KERNEL() void never(float* out) { store(out, 1.0f); }

