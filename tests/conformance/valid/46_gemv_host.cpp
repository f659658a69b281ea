#include "46_gemv.tile.cpp"
#include "audit2_common.hpp"
template <int BM, int BK>
void run(const char* name, int M, int K) {
  const int64_t lda = K + 9;
  auto A = a2::randn<half>(size_t(M) * lda), x = a2::randn<half>(K);
  auto bias = a2::randn<float>(M);
  std::vector<float> y(M + 4, NAN);
  tilecc::host::launch(cdiv(M, BM), a2_gemv<BM, BK>, A.data(), x.data(), bias.data(), y.data(), M, K, lda);
  std::vector<double> r(M);
  for (int i = 0; i < M; ++i) {
    double s = bias[i];
    for (int k = 0; k < K; ++k) s += a2::d(A[i * lda + k]) * a2::d(x[k]);
    r[i] = s;
  }
  a2::check(name, y, r, 1e-5);
  a2::expect("  y past M untouched", std::isnan(y[M]) && std::isnan(y[M + 3]));
}
int main() {
  run<32, 256>("gemv fp16 1000x3001", 1000, 3001);
  run<8, 512>("gemv fp16 17x100", 17, 100);
  {
    const int M = 333, K = 5000, split = 4, kps = 1280;
    const int64_t lda = K;
    auto A = a2::randn<float>(size_t(M) * lda), x = a2::randn<float>(K);
    std::vector<float> y(M, 0.0f);
    tilecc::host::launch({cdiv(M, 64), split}, a2_gemv_splitk<64, 128>, A.data(), x.data(), y.data(), M, K, lda, kps);
    std::vector<double> r(M);
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k) r[i] += double(A[i * lda + k]) * x[k];
    a2::check("gemv split-K fp32 333x5000 (4 splits, atomics)", y, r, 1e-5);
  }
  return a2::finish("46_gemv");
}
