#include "39_tut_layernorm.tile.cpp"
#include "audit2_common.hpp"

template <class T>
std::vector<double> as_d(const std::vector<T>& v) {
  std::vector<double> o(v.size());
  for (size_t i = 0; i < v.size(); ++i) o[i] = a2::d(v[i]);
  return o;
}

template <class T, int BF, int G, int BN, int BM2, int BN2>
void run(const char* name, int M, int N, double tol) {
  const int stride = N + 3;
  const float eps = 1e-5f;
  auto x = a2::randn<T>(size_t(M) * stride, 2.0f), w = a2::randn<T>(N), b = a2::randn<T>(N), dy = a2::randn<T>(size_t(M) * stride);
  for (auto& e : x) e = T(a2::d(e) + 0.5);
  std::vector<T> y(size_t(M) * stride, T(0.0f)), dx(size_t(M) * stride, T(0.0f)), fdw(N, T(NAN)), fdb(N, T(NAN));
  std::vector<float> mean(M, NAN), rstd(M, NAN), pdw(static_cast<size_t>(G) * N, 0.0f), pdb(static_cast<size_t>(G) * N, 0.0f);
  tilecc::host::launch(M, a2_ln_fwd<T, BF>, x.data(), y.data(), w.data(), b.data(), mean.data(), rstd.data(), stride, N, eps);
  tilecc::host::launch(M, a2_ln_bwd_dx_fused<T, G, BN>, dx.data(), dy.data(), pdw.data(), pdb.data(), x.data(), w.data(),
                       mean.data(), rstd.data(), stride, N);
  tilecc::host::launch(cdiv(N, BN2), a2_ln_bwd_dwdb<T, BM2, BN2>, pdw.data(), pdb.data(), fdw.data(), fdb.data(), G, N);
  std::vector<double> ry(M * size_t(stride)), gy(ry.size()), rdx(ry.size()), gdx(ry.size()), rm(M), rr(M), rdw(N), rdb(N);
  for (int r = 0; r < M; ++r) {
    double m = 0, v = 0;
    for (int c = 0; c < N; ++c) m += a2::d(x[r * stride + c]);
    m /= N;
    for (int c = 0; c < N; ++c) v += (a2::d(x[r * stride + c]) - m) * (a2::d(x[r * stride + c]) - m);
    v /= N;
    const double rs = 1 / std::sqrt(v + eps);
    rm[r] = m, rr[r] = rs;
    double c1 = 0, c2 = 0;
    for (int c = 0; c < N; ++c) {
      const double xh = (a2::d(x[r * stride + c]) - m) * rs, g = a2::d(dy[r * stride + c]);
      ry[r * stride + c] = xh * a2::d(w[c]) + a2::d(b[c]);
      gy[r * stride + c] = a2::d(y[r * stride + c]);
      c1 += xh * a2::d(w[c]) * g, c2 += a2::d(w[c]) * g;
      rdw[c] += g * xh, rdb[c] += g;
    }
    c1 /= N, c2 /= N;
    for (int c = 0; c < N; ++c) {
      const double xh = (a2::d(x[r * stride + c]) - m) * rs;
      rdx[r * stride + c] = (a2::d(w[c]) * a2::d(dy[r * stride + c]) - (xh * c1 + c2)) * rs;
      gdx[r * stride + c] = a2::d(dx[r * stride + c]);
    }
  }
  std::printf("%s\n", name);
  a2::check("  y", gy, ry, tol);
  a2::check("  mean", mean, rm, 1e-5);
  a2::check("  rstd", rstd, rr, 1e-5);
  a2::check("  dx", gdx, rdx, tol);
  a2::check("  dw", as_d(fdw), rdw, tol);
  a2::check("  db", as_d(fdb), rdb, tol);
}
int main() {
  run<half, 512, 16, 1024, 32, 128>("layernorm fp16 M=67 N=1000 (fwd BLOCK 512, 2 chunks)", 67, 1000, 3e-3);
  run<float, 1024, 8, 256, 8, 64>("layernorm fp32 M=130 N=200", 130, 200, 1e-5);
  return a2::finish("39_tut_layernorm");
}
