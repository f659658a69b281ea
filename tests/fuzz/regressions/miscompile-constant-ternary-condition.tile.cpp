// tilecc fuzz finding: b039_k1 of the GPU batch (seed 26); with it b250_k4_float, b252_k7,
// b283_k3 (whose translations came out wrong only now and then).
// Class: miscompile, nondeterministic (an if and its whole block vanished in some runs)
// Cause: canonicalize inlined the if that `true ? x : y` lowers to, freeing it, and then read
// the freed op through the result the outer if still named: a use after free that looked like
// a constant false when the memory had been reused.
// Reduced by hand; translator test ir_constant_ternary, unit test ir."an inlined constant if".
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void k(int ld19, long ld6, const bool* in22, int n21, int* acc26) {
  if ((true ? (max(ld19, -2) != sum<0>(zeros<bool, 2>())) : ((-7.0f > 5.61600018f) > (ld6 == 16L)))) {
    if (load(in22 + max(full<int, 256>(7)), max(full<int, 256>(7)) < n21, true)) {
      return;
    }
    store(acc26 + arange<16>(), arange<16>());
  }
}
