#include "matmul.tile.cpp"

#include "common/host_check.hpp"

#include <string>

template <class T, bool HAS_BIAS, activation ACT>
void run(sample::report& rep, sample::rng& r, int M, int N, int K, double tol) {
  constexpr int BM = 128, BN = 128;
  const int64_t lda = K + r.range(0, 3), ldb = N + r.range(0, 3), ldc = N + r.range(0, 3);
  auto a = sample::random_vector<T>(r, M * lda), b = sample::random_vector<T>(r, K * ldb);
  auto bias = sample::random_vector<T>(r, N);
  std::vector<T> c(M * ldc, sample::poison<T>());
  host::launch(cdiv(M, BM) * cdiv(N, BN), matmul<T, BM, BN, 64, 8, HAS_BIAS, ACT>, a.data(), b.data(), c.data(),
               HAS_BIAS ? bias.data() : nullptr, M, N, K, lda, ldb, ldc);
  sample::error_meter err;
  bool pad_untouched = true;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double s = HAS_BIAS ? sample::to_double(bias[j]) : 0.0;
      for (int k = 0; k < K; ++k) s += sample::to_double(a[i * lda + k]) * sample::to_double(b[k * ldb + j]);
      if (ACT == activation::relu) s = std::max(s, 0.0);
      if (ACT == activation::gelu) s = 0.5 * s * (1.0 + std::erf(s / std::sqrt(2.0)));
      err.add(sample::to_double(c[i * ldc + j]), s);
    }
    for (int j = N; j < ldc; ++j) pad_untouched &= std::isnan(sample::to_double(c[i * ldc + j]));
  }
  const std::string what = std::string(std::is_same_v<T, half> ? "half" : "bf16") + (HAS_BIAS ? " +bias" : "") +
                           (ACT == activation::relu ? " relu" : ACT == activation::gelu ? " gelu" : "") + " " +
                           std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  rep.check(what.c_str(), err.value(), tol);
  rep.expect((what + " padding untouched").c_str(), pad_untouched);
}

int main() {
  sample::report rep("matmul (host twin)");
  sample::rng r;
  run<half, false, activation::none>(rep, r, 256, 256, 128, 2e-3);
  run<half, false, activation::none>(rep, r, 100 + r.range(1, 200), 60 + r.range(1, 200), 30 + r.range(1, 150), 2e-3);
  run<half, true, activation::gelu>(rep, r, 130 + r.range(1, 100), 140 + r.range(1, 100), 64 + r.range(1, 100), 2e-3);
  run<bfloat16, false, activation::none>(rep, r, 129, 257, 65, 1e-2);
  run<bfloat16, true, activation::relu>(rep, r, 1 + r.range(1, 200), 1 + r.range(1, 200), 1 + r.range(1, 200), 1e-2);
  return rep.finish();
}
