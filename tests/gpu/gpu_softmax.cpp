#include "softmax/softmax.tile.cpp"
#include "softmax.h"

#include "gpu_check.hpp"

template <class T, int BLOCK, class D, class L>
void run(sample::report& rep, sample::rng& r, int rows, int cols, L launch, double tol) {
  const int64_t stride = cols + (rows % 2 == 0 ? 0 : r.range(1, 5));  // even row counts: aligned rows (the specialised variant)
  auto x = sample::random_vector<T>(r, rows * stride, 3.0f);
  std::vector<T> out(rows * stride, sample::poison<T>());
  auto twin = out;
  host::launch(rows, softmax<T, BLOCK>, x.data(), twin.data(), cols, stride, stride);
  gpu::buffer<T> dx(x), dout(out);
  GPU_CHECK(launch(dim3(rows), nullptr, dx.template as<const D>(), dout.template as<D>(), cols, stride, stride));
  gpu::sync();
  rep.compare_outputs(std::string(sizeof(T) == 2 ? "half" : "float") + " BLOCK=" + std::to_string(BLOCK) + " " +
                      std::to_string(rows) + "x" + std::to_string(cols),
             dout.get(), twin, tol);
}

int main() {
  gpu::require_gpu();
  sample::report rep("softmax (GPU vs host twin)");
  sample::rng r;
  run<float, 1024, float>(rep, r, 37, 1000, launch_softmax_float_1024, 1e-5);
  run<float, 1024, float>(rep, r, 5, 1, launch_softmax_float_1024, 1e-6);
  run<float, 4096, float>(rep, r, 300, 4096, launch_softmax_float_4096, 1e-5);
  run<float, 4096, float>(rep, r, 77, 4096 - r.range(1, 3000), launch_softmax_float_4096, 1e-5);
  run<tilecc::half, 4096, __half>(rep, r, 300, 4096 - r.range(0, 2000), launch_softmax_half_4096, 2e-3);
  return rep.finish();
}
