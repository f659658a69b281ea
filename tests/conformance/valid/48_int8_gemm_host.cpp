#include "48_int8_gemm.tile.cpp"
#include "audit2_common.hpp"

template <int BM, int BN, int BK, bool HB>
void run(const char* name, int M, int N, int K) {
  const int64_t lda = K + 1, ldw = N + 2, ldc = N;
  auto a = a2::randn<half>(size_t(M) * lda);
  std::vector<int8_t> w(size_t(K) * ldw);
  for (auto& e : w) e = int8_t(a2::irange(-128, 127));
  std::vector<float> scale(N);
  for (auto& e : scale) e = 0.001f + 0.01f * std::fabs(a2::normal());
  auto bias = a2::randn<half>(N);
  std::vector<half> c(size_t(M) * ldc, half(NAN));
  tilecc::host::launch({cdiv(M, BM), cdiv(N, BN)}, a2_w8a16<BM, BN, BK, HB>, a.data(), w.data(), scale.data(), bias.data(),
                       c.data(), M, N, K, lda, ldw, ldc);
  std::vector<double> r, g;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += a2::d(a[i * lda + k]) * w[k * ldw + j];
      s *= scale[j];
      if (HB) s += a2::d(bias[j]);
      r.push_back(s), g.push_back(a2::d(c[i * ldc + j]));
    }
  a2::check(name, g, r, 2e-3);
}
int main() {
  run<64, 64, 64, true>("w8a16 fp16 x int8 100x150x200 + bias", 100, 150, 200);
  run<16, 128, 32, false>("w8a16 fp16 x int8 7x300x77 (decode-shaped)", 7, 300, 77);
  {
    const int M = 70, N = 90, K = 130;
    std::vector<int8_t> a(size_t(M) * K), b(size_t(K) * N);
    for (auto& e : a) e = int8_t(a2::irange(-128, 127));
    for (auto& e : b) e = int8_t(a2::irange(-128, 127));
    auto as = a2::randn<float>(M), bs = a2::randn<float>(N);
    std::vector<float> c(size_t(M) * N, NAN);
    std::vector<int32_t> ci(size_t(M) * N, -1);
    tilecc::host::launch({cdiv(M, 64), cdiv(N, 64)}, a2_w8a8<64, 64, 64>, a.data(), b.data(), as.data(), bs.data(), c.data(),
                         ci.data(), M, N, K);
    std::vector<double> r;
    bool exact = true;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        int32_t s = 0;
        for (int k = 0; k < K; ++k) s += int32_t(a[i * K + k]) * int32_t(b[k * N + j]);
        exact &= ci[i * N + j] == s;
        r.push_back(double(s) * as[i] * bs[j]);
      }
    a2::expect("w8a8 int8 x int8 -> int32 70x90x130 exact", exact);
    a2::check("w8a8 scaled fp32", c, r, 1e-6);
  }
  return a2::finish("48_int8_gemm");
}
