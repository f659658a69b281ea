#include "transpose.tile.cpp"

#include "common/host_check.hpp"

#include <cstring>
#include <string>

template <class T, int B>
void run(sample::report& rep, sample::rng& r, int rows, int cols) {
  const int64_t xs = cols + r.range(0, 3), os = rows + r.range(0, 3);
  auto x = sample::random_vector<T>(r, rows * xs);
  std::vector<T> out(cols * os, sample::poison<T>());
  host::launch({cdiv(rows, B), cdiv(cols, B)}, transpose<T, B>, x.data(), out.data(), rows, cols, xs, os);
  bool exact = true, pad_untouched = true;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) exact &= std::memcmp(&out[j * os + i], &x[i * xs + j], sizeof(T)) == 0;
  for (int j = 0; j < cols; ++j)
    for (int i = rows; i < os; ++i) pad_untouched &= std::isnan(sample::to_double(out[j * os + i]));
  const std::string what = std::string(sizeof(T) == 2 ? "half" : "float") + " B=" + std::to_string(B) + " " +
                           std::to_string(rows) + "x" + std::to_string(cols);
  rep.expect((what + " exact").c_str(), exact);
  rep.expect((what + " padding untouched").c_str(), pad_untouched);
}

int main() {
  sample::report rep("transpose (host twin)");
  sample::rng r;
  run<half, 64>(rep, r, 256, 128);
  run<half, 64>(rep, r, 100 + r.range(1, 100), 70 + r.range(1, 100));
  run<float, 32>(rep, r, 1, 33);
  run<float, 32>(rep, r, 97, 1 + r.range(1, 200));
  return rep.finish();
}
