// A file-scope eps that is not constexpr.
#include <tilecc/tile.hpp>
using namespace tilecc;
float eps = 1e-5f;
TILECC_KERNEL()
void k(const float* x, float* out) {
  auto v = load(x + arange<128>());
  store(out + arange<128>(), v * (1.0f / std::sqrt(sum(v * v) / 128 + eps)));  // HERE
}
