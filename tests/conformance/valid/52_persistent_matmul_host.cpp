#include "52_persistent_matmul.tile.cpp"
#include "audit2_common.hpp"
int main() {
  const int M = 390, N = 270, K = 150;
  auto a = a2::randn<half>(size_t(M) * K), b = a2::randn<half>(size_t(K) * N);
  std::vector<half> c(size_t(M) * N, half(NAN));
  tilecc::host::launch(5, a2_matmul_persistent<128, 128, 64, 8>, a.data(), b.data(), c.data(), M, N, K, K, N, N);
  std::vector<double> r, g;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += a2::d(a[i * K + k]) * a2::d(b[k * N + j]);
      r.push_back(s), g.push_back(a2::d(c[i * N + j]));
    }
  a2::check("persistent matmul fp16 390x270x150, 5 programs for 12 tiles", g, r, 2e-3);
  return a2::finish("52_persistent_matmul");
}
