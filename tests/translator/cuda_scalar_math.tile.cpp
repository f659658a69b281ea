// <cmath> scalar functions print as CUDA's single-precision functions; isnan/isinf/isfinite/
// isnormal/signbit as comparisons; fdim as a select, lround/llrint as a rounding and a conversion; braces around one run-time value are that value; tiles of pointers read back from
// shared memory (a layout conversion) as `T* const*` elements or reinterpret_cast words.
// ARGS: --arch sm_80 -o -
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

TILECC_KERNEL(num_warps = 1)
void scalars(const float* p, float* out) {
  const int64_t base{program_id(0)};
  const float a = load(p + base), b = load(p + base + 1);
  store(out + base, std::atan2(b, a) + std::hypot(a, b) + std::fmod(a, b) + std::copysign(1.0f, b) + log1pf(a) +
                        std::rint(b) + std::nearbyint(a) + std::cbrt(a) + std::erfc(b));
  store(out + base + 1, std::isnan(a) || std::isinf(b) || !std::isfinite(a) ? 1.0f : 0.0f);
  store(out + base + 2, std::fdim(a, b) + std::remainder(a, b) + std::ldexp(a, 3) + scalbnf(b, -1));
  store(out + base + 3, std::signbit(a) || std::isnormal(b) ? static_cast<float>(std::lround(a)) : static_cast<float>(llrintf(b)));
  tile<float, 32> acc{zeros<float, 32>()};
  store(out + 64 + arange<32>(), acc + float{a});
}
// CHECK-LABEL: scalars(const float* p, float* out) {
// CHECK: const int64_t base = static_cast<int64_t>(
// CHECK-DAG: atan2f(b, a)
// CHECK-DAG: hypotf(a, b)
// CHECK-DAG: fmodf(a, b)
// CHECK-DAG: copysignf(1.0f, b)
// CHECK-DAG: log1pf(a)
// CHECK-DAG: rintf(b)
// CHECK-DAG: rintf(a)
// CHECK-DAG: cbrtf(a)
// CHECK-DAG: erfcf(b)
// CHECK-DAG: = a != a;
// CHECK-DAG: == tilecc::inf();
// CHECK-DAG: < tilecc::inf();
// CHECK-DAG: [[LE:[a-z_0-9]+]] = a <= b;
// CHECK-DAG: [[SUB:[a-z_0-9]+]] = a - b;
// CHECK-DAG: = [[LE]] ? 0.0f : [[SUB]];
// CHECK-DAG: remainderf(a, b)
// CHECK-DAG: ldexpf(a, static_cast<int>(3.0f))
// CHECK-DAG: ldexpf(b, static_cast<int>((-1.0f)))
// CHECK-DAG: [[SIGN:[a-z_0-9]+]] = copysignf(1.0f, a);
// CHECK-DAG: = [[SIGN]] < 0.0f;
// CHECK-DAG: >= 1.17549435e-38f;
// CHECK-DAG: [[ROUND:[a-z_0-9]+]] = roundf(a);
// CHECK-DAG: = tilecc::cvt_i64([[ROUND]]);
// CHECK-DAG: = tilecc::cvt_i64(store_rint{{.*}});

TILECC_KERNEL(num_warps = 4)
void pointer_reshape(const float* x, float* y, float* z) {
  store(y + col(arange<16>()) * 64 + row(arange<64>()), load(reshape<16, 64>(x + arange<1024>())));
  store(reshape<16, 64>(z + arange<1024>()), 1.0f);
}
// CHECK-LABEL: pointer_reshape(const float* x
// CHECK: = *reinterpret_cast<const float* const*>(
// CHECK: = *reinterpret_cast<float* const*>(
// CHECK-NOT: const const

TILECC_KERNEL(num_warps = 4)
void pointer_loop(const int* x, int* y, int rows, int cols) {
  auto p = x + arange<64>();
  int total = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; c += 64) total += sum(load(p + c, c + arange<64>() < cols, 0));
    p += cols;
  }
  store(y, total);
}
// CHECK-LABEL: pointer_loop(const int* x
// CHECK: = reinterpret_cast<const int*>((static_cast<unsigned long long>(word.y) << 32) | word.x);
