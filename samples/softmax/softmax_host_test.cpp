#include "softmax.tile.cpp"

#include "common/host_check.hpp"

#include <string>

template <class T, int BLOCK>
void run(sample::report& rep, sample::rng& r, int rows, int cols, double tol) {
  const int64_t stride = cols + r.range(0, 3);  // padded rows
  auto x = sample::random_vector<T>(r, rows * stride, 2.0f);
  std::vector<T> out(rows * stride, sample::poison<T>());
  host::launch(rows, softmax<T, BLOCK>, x.data(), out.data(), cols, stride, stride);
  sample::error_meter err;
  bool pad_untouched = true;
  for (int i = 0; i < rows; ++i) {
    double mx = -INFINITY, s = 0;
    for (int j = 0; j < cols; ++j) mx = std::max(mx, sample::to_double(x[i * stride + j]));
    for (int j = 0; j < cols; ++j) s += std::exp(sample::to_double(x[i * stride + j]) - mx);
    for (int j = 0; j < cols; ++j)
      err.add(sample::to_double(out[i * stride + j]), std::exp(sample::to_double(x[i * stride + j]) - mx) / s);
    for (int j = cols; j < stride; ++j) pad_untouched &= std::isnan(sample::to_double(out[i * stride + j]));
  }
  const std::string what = std::string(sizeof(T) == 2 ? "half" : "float") + " BLOCK=" + std::to_string(BLOCK) +
                           " " + std::to_string(rows) + "x" + std::to_string(cols);
  rep.check(what.c_str(), err.value(), tol);
  rep.expect((what + " padding untouched").c_str(), pad_untouched);
}

int main() {
  sample::report rep("softmax (host twin)");
  sample::rng r;
  run<float, 1024>(rep, r, 7, 1000, 1e-5);
  run<float, 1024>(rep, r, 3, 1024, 1e-5);
  run<float, 1024>(rep, r, 5, 1, 1e-6);
  run<float, 4096>(rep, r, 4, 4096 - r.range(0, 3000), 1e-5);
  run<half, 4096>(rep, r, 6, 4096 - r.range(1, 2000), 2e-3);
  return rep.finish();
}
