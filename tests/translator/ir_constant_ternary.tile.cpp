// A condition that is itself a constant-condition ternary: `true ? x : y` lowers to an if that
// canonicalize inlines; the if that reads its result must then read x, not the inlined (freed)
// op. Fuzz batch finding b039_k1: the outer if read the freed inner one as a constant false
// now and then, and its whole block vanished (a nondeterministic miscompile; under
// AddressSanitizer, as the CI's sanitizer build runs this test, a use after free).
// ARGS: --emit=ir -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void ternary_condition(int a, long b, const bool* flags, int n, int* out) {
  if ((true ? (max(a, -2) != sum<0>(zeros<bool, 2>())) : ((-7.0f > 5.6f) > (b == 16L)))) {
    if (load(flags + max(full<int, 256>(7)), max(full<int, 256>(7)) < n, true)) {
      return;
    }
    store(out + arange<16>(), arange<16>());
  }
  auto v = false ? a : a + 1;
  store(out + 16 + arange<16>(), arange<16>() * v);
}
// CHECK-LABEL: kernel @ternary_condition
// CHECK: %[[NE:[a-z_0-9]+]] = binary.ne
// CHECK-NEXT: if %[[NE]] {
// CHECK: load
// CHECK: return
// CHECK: store
// CHECK: binary.add %a
// CHECK: store
