#include "layernorm.tile.cpp"

#include "common/host_check.hpp"

#include <string>

template <class T, int BLOCK>
void run(sample::report& rep, sample::rng& r, int rows, int cols, double tol) {
  const int64_t stride = cols + r.range(0, 5);
  const float eps = 1e-5f;
  auto x = sample::random_vector<T>(r, rows * stride, 3.0f);
  for (auto& e : x) e = T(static_cast<float>(sample::to_double(e)) + 1.5f);  // a non-zero mean
  auto w = sample::random_vector<T>(r, cols), b = sample::random_vector<T>(r, cols);
  std::vector<T> y(rows * stride, sample::poison<T>());
  std::vector<float> mean(rows, NAN), rstd(rows, NAN);
  host::launch(rows, layernorm<T, BLOCK>, x.data(), y.data(), w.data(), b.data(), mean.data(), rstd.data(), cols,
               stride, eps);
  sample::error_meter err, err_stats;
  for (int i = 0; i < rows; ++i) {
    double m = 0, var = 0;
    for (int j = 0; j < cols; ++j) m += sample::to_double(x[i * stride + j]);
    m /= cols;
    for (int j = 0; j < cols; ++j) var += std::pow(sample::to_double(x[i * stride + j]) - m, 2);
    const double rs = 1.0 / std::sqrt(var / cols + eps);
    for (int j = 0; j < cols; ++j) {
      const double ref = (sample::to_double(x[i * stride + j]) - m) * rs * sample::to_double(w[j]) + sample::to_double(b[j]);
      err.add(sample::to_double(y[i * stride + j]), ref);
    }
    err_stats.add(mean[i], m);
    err_stats.add(rstd[i], rs);
  }
  const std::string what = std::string(sizeof(T) == 2 ? "half" : "float") + " " + std::to_string(rows) + "x" +
                           std::to_string(cols);
  rep.check(what.c_str(), err.value(), tol);
  rep.check((what + " mean/rstd").c_str(), err_stats.value(), 1e-5);
}

int main() {
  sample::report rep("layernorm (host twin)");
  sample::rng r;
  run<half, 4096>(rep, r, 5, 4096, 2e-3);
  run<half, 4096>(rep, r, 4, 4096 - r.range(1, 3000), 2e-3);
  run<float, 1024>(rep, r, 6, 1024 - r.range(1, 1000), 1e-5);
  run<float, 1024>(rep, r, 2, 1, 1e-5);
  return rep.finish();
}
