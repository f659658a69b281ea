// Contract §4: "Scalar math uses <cmath> (std::exp, ...)"; §5: only calls of functions without a visible
// body *other than this API and <cmath> scalar math* are rejected. Common <cmath> functions on scalars.
#include <tilecc/tile.hpp>
#include <cmath>
using namespace tilecc;

// Per-program scalar parameters computed with <cmath>: a rotation angle, a stable softplus, a NaN guard.
TILECC_KERNEL(num_warps = 4)
void cmath_scalars(const float* params, float* out) {
  const float a = load(params);
  const float b = load(params + 1);
  const float angle = std::atan2(b, a);
  const float softplus = std::log1p(std::exp(-std::fabs(a))) + std::fmax(a, 0.0f);
  const float safe = std::isnan(b) ? 0.0f : b;
  const float r = std::hypot(a, b) + std::fmod(b, 2.0f) + std::log10(std::fabs(a) + 1.0f) + std::expm1(a * 0.1f);
  auto i = arange<128>();
  store(out + i, cast<float>(i) * angle + softplus + safe + r);
}
