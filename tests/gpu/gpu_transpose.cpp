#include "transpose/transpose.tile.cpp"
#include "transpose.h"

#include "gpu_check.hpp"

template <class T, int B, class D, class L>
void run(sample::report& rep, sample::rng& r, int rows, int cols, L launch, bool oddStrides = false) {
  // Odd row counts (or oddStrides): strides that break 16-byte row alignment.
  const bool odd = oddStrides || rows % 2 != 0;
  const int64_t xs = cols + (odd ? r.range(1, 3) : 0), os = rows + (odd ? r.range(1, 3) : 0);
  auto x = sample::random_vector<T>(r, rows * xs);
  std::vector<T> out(cols * os, sample::poison<T>());
  auto twin = out;
  host::launch({cdiv(rows, B), cdiv(cols, B)}, transpose<T, B>, x.data(), twin.data(), rows, cols, xs, os);
  gpu::buffer<T> dx(x), dout(out);
  GPU_CHECK(launch(dim3(cdiv(rows, B), cdiv(cols, B)), nullptr, dx.template as<const D>(), dout.template as<D>(), rows, cols, xs, os));
  gpu::sync();
  rep.compare_outputs(std::string(sizeof(T) == 2 ? "half" : "float") + " " + std::to_string(rows) + "x" + std::to_string(cols),
             dout.get(), twin, 0.0);
}

int main() {
  gpu::require_gpu();
  sample::report rep("transpose (GPU vs host twin)");
  sample::rng r;
  run<tilecc::half, 64, __half>(rep, r, 1024, 512, launch_transpose_half_64);
  // Sizes multiples of 16 and aligned pointers, but rows that are not: the general kernel.
  run<tilecc::half, 64, __half>(rep, r, 512, 256, launch_transpose_half_64, true);
  run<tilecc::half, 64, __half>(rep, r, 300 + r.range(1, 300), 200 + r.range(1, 300), launch_transpose_half_64);
  run<float, 32, float>(rep, r, 1, 33, launch_transpose_float_32);
  run<float, 32, float>(rep, r, 517, 1 + r.range(1, 700), launch_transpose_float_32);
  return rep.finish();
}
