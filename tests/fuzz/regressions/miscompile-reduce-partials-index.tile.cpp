// tilecc fuzz finding: b175_k0 of the GPU batch (seed 26); with it b098_k5, b228_k6, b246_k6,
// b259_k7 (illegal memory access on the GPU).
// Class: miscompile (the GPU disagreed with the host twin; shared-memory indices out of range)
// Cause: a cross-warp reduction's partial-result slot put an input register index that is a sum,
// `(reg % 2) + (reg / 2) * 2`, into `% 2` and `/ 2` without parentheses.
// Reduced by hand; the GPU check is gpu_features' reduce_rank3.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void r1(int* out, int s) {
  auto i = reshape<16, 64>(arange<1024>());
  auto y = minimum(sum<0>(zeros<int8_t, 8, 16, 64>()), cast<int>(full<half, 16, 64>(1.0f)));
  auto z = argmax<0>(where(full<bool, 2, 16, 64>(true),
                           cast<int8_t>((expand_dims<2>(col(arange<2>())) * 1024 + reshape<1, 16, 1>(arange<16>()) * 64 +
                                         reshape<1, 1, 64>(arange<64>()))),
                           s));
  store(out + i, abs(fma(full<int, 16, 64>(148) ^ (3 + i * (-1)), y, z)));
}
