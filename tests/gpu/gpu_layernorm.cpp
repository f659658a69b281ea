#include "layernorm/layernorm.tile.cpp"
#include "layernorm.h"

#include "gpu_check.hpp"

template <class T, int BLOCK, class D, class L>
void run(sample::report& rep, sample::rng& r, int rows, int cols, L launch, double tol) {
  const int64_t stride = cols + (rows % 2 == 0 ? 0 : r.range(1, 5));  // even row counts: aligned rows (the specialised variant)
  auto x = sample::random_vector<T>(r, rows * stride, 2.0f);
  auto w = sample::random_vector<T>(r, cols), b = sample::random_vector<T>(r, cols);
  std::vector<T> y(rows * stride, sample::poison<T>());
  std::vector<float> mean(rows + 1, NAN), rstd(rows + 1, NAN);
  auto ty = y;
  auto tmean = mean, trstd = rstd;
  host::launch(rows, layernorm<T, BLOCK>, x.data(), ty.data(), w.data(), b.data(), tmean.data(), trstd.data(), cols,
               stride, 1e-5f);
  gpu::buffer<T> dx(x), dy(y), dw(w), db(b);
  gpu::buffer<float> dmean(mean), drstd(rstd);
  GPU_CHECK(launch(dim3(rows), nullptr, dx.template as<const D>(), dy.template as<D>(), dw.template as<const D>(),
                   db.template as<const D>(), dmean.p, drstd.p, cols, stride, 1e-5f));
  gpu::sync();
  const std::string what = std::string(sizeof(T) == 2 ? "half" : "float") + " " + std::to_string(rows) + "x" + std::to_string(cols);
  rep.compare_outputs(what, dy.get(), ty, tol);
  rep.compare_outputs(what + " mean", dmean.get(), tmean, 1e-5);
  rep.compare_outputs(what + " rstd", drstd.get(), trstd, 1e-5);
}

int main() {
  gpu::require_gpu();
  sample::report rep("layernorm (GPU vs host twin)");
  sample::rng r;
  run<tilecc::half, 4096, __half>(rep, r, 200, 4096, launch_layernorm_half_4096, 2e-3);
  run<tilecc::half, 4096, __half>(rep, r, 33, 4096 - r.range(1, 3000), launch_layernorm_half_4096, 2e-3);
  run<float, 1024, float>(rep, r, 65, 1024 - r.range(1, 1000), launch_layernorm_float_1024, 1e-5);
  return rep.finish();
}
