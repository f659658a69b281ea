#include "row_sum.tile.cpp"

#include "common/host_check.hpp"

#include <string>

template <int BLOCK>
void run(sample::report& rep, sample::rng& r, int rows, int cols) {
  const int64_t stride = cols + r.range(0, 7);
  auto x = sample::random_vector<float>(r, rows * stride);
  std::vector<float> out(rows + 1, NAN);
  host::launch(rows, row_sum<BLOCK>, x.data(), out.data(), cols, stride);
  sample::error_meter err;
  for (int i = 0; i < rows; ++i) {
    double s = 0;
    for (int j = 0; j < cols; ++j) s += x[i * stride + j];
    err.add(out[i], s);
  }
  const std::string what = "BLOCK=" + std::to_string(BLOCK) + " " + std::to_string(rows) + "x" + std::to_string(cols);
  rep.check(what.c_str(), err.value(), 1e-5);
  rep.expect((what + " writes no row past the last").c_str(), std::isnan(out[rows]));
}

int main() {
  sample::report rep("row_sum (host twin)");
  sample::rng r;
  run<2048>(rep, r, 5, 8192);
  run<2048>(rep, r, 3, 5000 + r.range(1, 3000));
  run<2048>(rep, r, 4, 100);
  run<256>(rep, r, 6, 1000 + r.range(1, 999));
  run<256>(rep, r, 2, 0);  // empty rows sum to 0
  return rep.finish();
}
