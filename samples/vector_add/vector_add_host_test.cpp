#include "vector_add.tile.cpp"

#include "common/host_check.hpp"

#include <string>

int main() {
  sample::report rep("vector_add (host twin)");
  sample::rng r;
  for (int n : {1, 1023, 1024, 1025, 4096 + r.range(1, 4000)}) {
    for (int shift : {0, 1}) {  // shift: misaligned pointers
      auto x = sample::random_vector<float>(r, n + shift), y = sample::random_vector<float>(r, n + shift);
      std::vector<float> out(n + shift + 1, sample::poison<float>());
      host::launch(cdiv(n, 1024), vector_add, x.data() + shift, y.data() + shift, out.data() + shift, n);
      sample::error_meter err;
      for (int i = 0; i < n; ++i)
        err.add(out[i + shift], static_cast<double>(x[i + shift]) + static_cast<double>(y[i + shift]));
      const std::string what = "n=" + std::to_string(n) + " shift=" + std::to_string(shift);
      rep.check(what.c_str(), err.value(), 1e-7);
      rep.expect((what + " leaves the element past n alone").c_str(), std::isnan(out[n + shift]));
    }
  }
  return rep.finish();
}
