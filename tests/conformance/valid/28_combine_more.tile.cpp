// Combine functions: fmaxf/fminf by name (docs), an int8 exact-signature lambda along axis 0 across warps,
// a bfloat16 combine along axis 0, a non-commutative associative combine (2x2 matrix-like affine compose).
#include <tilecc/tile.hpp>
#include <cmath>
using namespace tilecc;

// Associative, not commutative: composing "keep-left-if-nonzero" (first non-zero element so far).
inline int first_nonzero(int a, int b) { return a != 0 ? a : b; }

TILECC_KERNEL(num_warps = 8)
void combine_more(const float* x, const int8_t* a, const bfloat16* b, const int* c, float* of, int8_t* oa,
                  bfloat16* ob, int* oc) {
  auto idx = col(arange<64>()) * 32 + row(arange<32>());
  auto v = load(x + idx);
  store(of + arange<32>(), reduce<0>(v, fmaxf));
  store(of + 32 + idx, scan<0>(v, fminf));
  store(oa + idx, scan<0>(load(a + idx), [](int8_t p, int8_t q) -> int8_t { return p + q; }));
  store(ob + arange<32>(), reduce<0>(load(b + idx), [](bfloat16 p, bfloat16 q) {
          return bfloat16(static_cast<float>(p) + static_cast<float>(q));
        }));
  store(oc + idx, scan<0>(load(c + idx), first_nonzero));
  store(oc + 2048 + arange<64>(), reduce<1>(load(c + idx), first_nonzero));
}
