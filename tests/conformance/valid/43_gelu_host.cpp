#include "43_gelu.tile.cpp"
#include "audit2_common.hpp"

double g(double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }
double dg(double x) {
  const double t = std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.7978845608028654 * (1 + 3 * 0.044715 * x * x);
}
template <class T, int B, int BB>
void run(const char* name, int n, double tol, bool bwd) {
  auto x = a2::randn<T>(n, 3.0f), dy = a2::randn<T>(n);
  std::vector<T> y(n + 3, T(NAN)), dx(n + 3, T(NAN));
  tilecc::host::launch(cdiv(n, B), a2_gelu_fwd<T, B>, x.data(), y.data(), n);
  std::vector<double> ry(n), rdx(n);
  for (int i = 0; i < n; ++i) ry[i] = g(a2::d(x[i])), rdx[i] = a2::d(dy[i]) * dg(a2::d(x[i]));
  std::printf("%s\n", name);
  a2::check("  gelu", y, ry, tol);
  a2::expect("  tail untouched", std::isnan(a2::d(y[n])) && std::isnan(a2::d(y[n + 2])));
  if constexpr (BB > 0) {
    if (bwd) {
      tilecc::host::launch(cdiv(n, BB), a2_gelu_bwd<T, BB>, dy.data(), x.data(), dx.data(), n);
      a2::check("  gelu backward", dx, rdx, tol);
    }
  }
}
int main() {
  run<float, 1024, 1024>("gelu fp32 n=10007", 10007, 1e-6, true);
  run<bfloat16, 2048, 1024>("gelu bf16 n=4099", 4099, 1e-2, true);
  run<half, 512, 0>("gelu fp16 n=513", 513, 2e-3, false);
  return a2::finish("43_gelu");
}
