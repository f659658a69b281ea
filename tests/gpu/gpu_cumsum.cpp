#include "cumsum/cumsum.tile.cpp"
#include "cumsum.h"

#include "gpu_check.hpp"

template <int BLOCK, class L>
void run(sample::report& rep, sample::rng& r, int rows, int cols, L launch) {
  const int64_t stride = cols + (rows % 2 == 0 ? 0 : r.range(1, 7));  // even row counts: aligned rows
  auto x = sample::random_vector<float>(r, rows * stride);
  std::vector<float> y(rows * stride + 3, NAN);
  auto twin = y;
  host::launch(rows, cumsum_rows<BLOCK>, x.data(), twin.data(), cols, stride);
  gpu::buffer<float> dx(x), dy(y);
  GPU_CHECK(launch(dim3(rows), nullptr, dx.p, dy.p, cols, stride));
  gpu::sync();
  rep.compare_outputs("BLOCK=" + std::to_string(BLOCK) + " " + std::to_string(rows) + "x" + std::to_string(cols), dy.get(), twin, 1e-5);
}

int main() {
  gpu::require_gpu();
  sample::report rep("cumsum (GPU vs host twin)");
  sample::rng r;
  run<4096>(rep, r, 64, 4096, launch_cumsum_rows_4096);
  run<4096>(rep, r, 37, 5000 + r.range(1, 3000), launch_cumsum_rows_4096);
  run<4096>(rep, r, 5, 7, launch_cumsum_rows_4096);
  run<512>(rep, r, 100, 1000 + r.range(1, 999), launch_cumsum_rows_512);
  run<512>(rep, r, 3, 0, launch_cumsum_rows_512);
  return rep.finish();
}
