#include "cumsum.tile.cpp"

#include "common/host_check.hpp"

#include <string>

template <int BLOCK>
void run(sample::report& rep, sample::rng& r, int rows, int cols) {
  const int64_t stride = cols + r.range(0, 7);
  auto x = sample::random_vector<float>(r, rows * stride);
  std::vector<float> y(rows * stride + 1, NAN);
  host::launch(rows, cumsum_rows<BLOCK>, x.data(), y.data(), cols, stride);
  sample::error_meter err;
  bool untouched = std::isnan(y[rows * stride]);
  for (int i = 0; i < rows; ++i) {
    double s = 0;
    for (int j = 0; j < cols; ++j) {
      s += x[i * stride + j];
      err.add(y[i * stride + j], s);
    }
    for (int j = cols; j < stride; ++j) untouched &= std::isnan(y[i * stride + j]);
  }
  const std::string what = "BLOCK=" + std::to_string(BLOCK) + " " + std::to_string(rows) + "x" + std::to_string(cols);
  rep.check(what.c_str(), err.value(), 1e-5);
  rep.expect((what + " writes nothing past a row's end").c_str(), untouched);
}

int main() {
  sample::report rep("cumsum (host twin)");
  sample::rng r;
  run<4096>(rep, r, 3, 4096);
  run<4096>(rep, r, 2, 5000 + r.range(1, 3000));
  run<512>(rep, r, 5, 1000 + r.range(1, 999));
  run<512>(rep, r, 4, 7);
  run<512>(rep, r, 2, 0);
  return rep.finish();
}
