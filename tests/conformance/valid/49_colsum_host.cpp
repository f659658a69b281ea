#include "49_colsum.tile.cpp"
#include "audit2_common.hpp"
template <class T, int BM, int BN>
void run(const char* name, int M, int N, double tol) {
  const int64_t ld = N + 11;
  auto x = a2::randn<T>(size_t(M) * ld);
  std::vector<float> out(N + 3, NAN);
  tilecc::host::launch(cdiv(N, BN), a2_colsum<T, BM, BN>, x.data(), out.data(), M, N, ld);
  std::vector<double> r(N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) r[j] += a2::d(x[i * ld + j]);
  a2::check(name, out, r, tol);
  a2::expect("  columns past N untouched", std::isnan(out[N]) && std::isnan(out[N + 2]));
}
int main() {
  run<float, 32, 64>("colsum fp32 1001x77", 1001, 77, 1e-6);
  run<half, 64, 128>("colsum fp16->fp32 130x300", 130, 300, 1e-6);
  {
    const int M = 1000, N = 333;
    const int64_t ld = N;
    auto x = a2::randn<float>(size_t(M) * ld);
    std::vector<float> out(N, 0.0f);
    tilecc::host::launch({cdiv(N, 128), cdiv(M, 64)}, a2_colsum_atomic<16, 128, 64>, x.data(), out.data(), M, N, ld);
    std::vector<double> r(N);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) r[j] += x[i * ld + j];
    a2::check("colsum split-M atomics fp32 1000x333", out, r, 1e-6);
  }
  return a2::finish("49_colsum");
}
