#include "44_cross_entropy.tile.cpp"
#include "audit2_common.hpp"

template <class T, int B>
void run(const char* name, int rows, int V, double tol) {
  const int64_t stride = V + 7;
  auto x = a2::randn<T>(size_t(rows) * stride, 4.0f);
  std::vector<int64_t> y(rows);
  int nn = 0;
  for (int r = 0; r < rows; ++r) {
    y[r] = r % 5 == 3 ? -100 : a2::irange(0, V - 1);
    nn += y[r] != -100;
  }
  y[0] = V - 1;
  std::vector<float> loss(rows, NAN), lse(rows, NAN);
  std::vector<T> dx(x.size(), T(NAN));
  tilecc::host::launch(rows, a2_xent_fwd<T, B>, x.data(), stride, y.data(), loss.data(), lse.data(), V, -100);
  tilecc::host::launch(rows, a2_xent_bwd<T, B>, x.data(), dx.data(), stride, y.data(), lse.data(), V, nn, -100);
  std::vector<double> rl(rows), rlse(rows), rdx, gdx;
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < V; ++c) m = std::max(m, a2::d(x[r * stride + c]));
    for (int c = 0; c < V; ++c) s += std::exp(a2::d(x[r * stride + c]) - m);
    const double l = m + std::log(s);
    const bool ign = y[r] == -100;
    rl[r] = ign ? 0 : l - a2::d(x[r * stride + y[r]]);
    rlse[r] = ign ? 0 : l;
    for (int c = 0; c < V; ++c) {
      rdx.push_back(ign ? 0 : (std::exp(a2::d(x[r * stride + c]) - l) - (c == y[r])) / nn);
      gdx.push_back(a2::d(dx[r * stride + c]));
    }
  }
  std::printf("%s\n", name);
  a2::check("  loss", loss, rl, tol);
  a2::check("  lse", lse, rlse, 1e-6);
  a2::check("  dlogits", gdx, rdx, sizeof(T) == 2 ? 1e-2 : tol * 10);
}
int main() {
  run<float, 1024>("cross-entropy fp32 rows=23 vocab=5003 (5 chunks)", 23, 5003, 1e-5);
  run<bfloat16, 4096>("cross-entropy bf16 rows=11 vocab=32001 (8 chunks)", 11, 32001, 1e-5);
  return a2::finish("44_cross_entropy");
}
