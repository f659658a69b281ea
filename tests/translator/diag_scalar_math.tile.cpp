// <cmath> functions outside the supported set, and constexpr globals that are not scalars (a
// member read directly folds; passing the object does not): one located error each, naming what
// is supported; no kernel is written.
// ARGS: -o out.cu
// EXIT: 1
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

struct Scale {
  float k;
};
constexpr Scale kHalf{0.5f};
inline float apply(const Scale& s, float v) { return s.k * v; }

TILECC_KERNEL()
void uses_constexpr_object(float* out) {
  // DIAG-DAG: diag_scalar_math.tile.cpp:[[@LINE+1]]:20: error: constexpr global 'kHalf' is not a scalar; kernels may use only constexpr globals of scalar type
  store(out, apply(kHalf, 2.0f));
}

TILECC_KERNEL()
void uses_nextafter(float* out, float x) {
  // DIAG-DAG: diag_scalar_math.tile.cpp:[[@LINE+1]]:14: error: 'nextafter' is not supported in kernels (scalar math: exp, exp2, expm1, log, {{.*}}, isnan, isinf, isfinite, isnormal, signbit)
  store(out, std::nextafter(x, 2.0f));
}

TILECC_KERNEL()
void uses_frexp(float* out, float x, int* e) {
  int exponent = 0;
  // DIAG-DAG: diag_scalar_math.tile.cpp:[[@LINE+1]]:14: error: 'frexp' is not supported in kernels
  store(out, std::frexp(x, &exponent));
  store(e, exponent);
}
