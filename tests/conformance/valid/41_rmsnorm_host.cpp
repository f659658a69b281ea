#include "41_rmsnorm.tile.cpp"
#include "audit2_common.hpp"

template <class T, int B>
void run(const char* name, int M, int N, double tol, bool bwd) {
  const int64_t stride = N + 5;
  const float eps = 1e-6f;
  auto x = a2::randn<T>(size_t(M) * stride), w = a2::randn<T>(N), dy = a2::randn<T>(size_t(M) * stride);
  std::vector<T> y(x.size(), T(NAN)), dx(x.size(), T(NAN));
  std::vector<float> rstd(M, NAN);
  tilecc::host::launch(M, a2_rmsnorm_fwd<T, B>, y.data(), stride, x.data(), stride, w.data(), rstd.data(), N, eps);
  if (bwd) tilecc::host::launch(M, a2_rmsnorm_bwd<T, B>, dx.data(), dy.data(), x.data(), w.data(), rstd.data(), stride, N);
  std::vector<double> ry, gy, rr(M), rdx, gdx;
  for (int r = 0; r < M; ++r) {
    double ms = 0, mx = 0;
    for (int c = 0; c < N; ++c) ms += a2::d(x[r * stride + c]) * a2::d(x[r * stride + c]);
    const double rs = 1 / std::sqrt(ms / N + eps);
    rr[r] = rs;
    for (int c = 0; c < N; ++c) mx += a2::d(dy[r * stride + c]) * a2::d(w[c]) * a2::d(x[r * stride + c]);
    mx /= N;
    for (int c = 0; c < N; ++c) {
      ry.push_back(a2::d(x[r * stride + c]) * rs * a2::d(w[c]));
      gy.push_back(a2::d(y[r * stride + c]));
      rdx.push_back(rs * a2::d(dy[r * stride + c]) * a2::d(w[c]) - rs * rs * rs * mx * a2::d(x[r * stride + c]));
      gdx.push_back(a2::d(dx[r * stride + c]));
    }
  }
  std::printf("%s\n", name);
  a2::check("  y", gy, ry, tol);
  a2::check("  rstd", rstd, rr, 1e-5);
  if (bwd) a2::check("  dx", gdx, rdx, tol);
}
int main() {
  run<bfloat16, 1024>("rmsnorm bf16 M=41 N=1000 (+ backward)", 41, 1000, 1e-2, true);
  run<half, 4096>("rmsnorm fp16 M=7 N=4095", 7, 4095, 2e-3, false);
  run<float, 128>("rmsnorm fp32 M=100 N=77", 100, 77, 1e-6, false);
  return a2::finish("41_rmsnorm");
}
