#include "row_sum/row_sum.tile.cpp"
#include "row_sum.h"

#include "gpu_check.hpp"

template <int BLOCK, class L>
void run(sample::report& rep, sample::rng& r, int rows, int cols, L launch) {
  const int64_t stride = cols + (rows % 2 == 0 ? 0 : r.range(1, 7));  // even row counts: aligned rows
  auto x = sample::random_vector<float>(r, rows * stride);
  std::vector<float> out(rows + 2, NAN);
  auto twin = out;
  host::launch(rows, row_sum<BLOCK>, x.data(), twin.data(), cols, stride);
  gpu::buffer<float> dx(x), dout(out);
  GPU_CHECK(launch(dim3(rows), nullptr, dx.p, dout.p, cols, stride));
  gpu::sync();
  rep.compare_outputs("BLOCK=" + std::to_string(BLOCK) + " " + std::to_string(rows) + "x" + std::to_string(cols), dout.get(), twin, 1e-5);
}

int main() {
  gpu::require_gpu();
  sample::report rep("row_sum (GPU vs host twin)");
  sample::rng r;
  run<2048>(rep, r, 64, 8192, launch_row_sum_2048);
  run<2048>(rep, r, 37, 5000 + r.range(1, 3000), launch_row_sum_2048);
  run<2048>(rep, r, 5, 7, launch_row_sum_2048);
  run<256>(rep, r, 100, 1000 + r.range(1, 999), launch_row_sum_256);
  run<256>(rep, r, 3, 0, launch_row_sum_256);
  return rep.finish();
}
