// Kernel option values are integer constant expressions: literals, true/false, the kernel's
// template parameters, constexpr variables and enumerators (plain or namespace-qualified), with
// C++'s arithmetic, comparisons, logic and ?:, evaluated per instantiation.
// ARGS: --emit=report -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

constexpr int kBase = 2;
namespace cfg {
constexpr int kWarps = 8;
enum { kPrograms = 3 };
}  // namespace cfg

template <int BM, int D>
TILECC_KERNEL(num_warps = BM >= 128 ? cfg::kWarps : BM / 16, min_programs_per_sm = (D == 64) + kBase * (cfg::kPrograms - 2))
void scale(const float* x, float* y) { store(y + arange<BM>(), load(x + arange<BM>()) * 2.0f); }

// CHECK-LABEL: kernel scale_128_64 (scale<128, 64>), 8 warps, for sm_80
// CHECK: programs per SM: at least 3 (min_programs_per_sm)
template void scale<128, 64>(const float*, float*);
// CHECK-LABEL: kernel scale_32_128 (scale<32, 128>), 2 warps, for sm_80
// CHECK: programs per SM: at least 2 (min_programs_per_sm)
template void scale<32, 128>(const float*, float*);
