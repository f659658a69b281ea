// Uses the kernels through their launchers' headers, like any user code, and checks them with
// the installed helpers: <tilecc/gpu_testing.hpp> (the GPU against the host twin on fresh random
// inputs of a ragged size, outputs poisoned beyond n) and <tilecc/bench.hpp> (timing). Without
// a GPU it says so and succeeds: the build is what the package test checks.
#include "add.h"
#include "kernels/add.tile.cpp"  // the host twin of add

#include <tilecc/bench.hpp>
#include <tilecc/gpu_testing.hpp>

#include <cstdio>
#include <vector>

namespace tt = tilecc::testing;

int main() {
  tt::gpu::require_gpu();
  tt::report rep("user_app");
  tt::rng r;
  const int n = 1000003 + r.range(0, 1000);
  const auto x = tt::random_vector<float>(r, n), y = tt::random_vector<float>(r, n);
  std::vector<float> out(n + 5, tt::poison<float>()), twin = out;
  const dim3 grid((n + 511) / 512);
  tilecc::host::launch(grid.x, add, x.data(), y.data(), twin.data(), n);
  tt::gpu::buffer<float> dx(x), dy(y), dout(out);
  TILECC_CUDA_CHECK(launch_add(grid, nullptr, dx.p, dy.p, dout.p, n));
  tt::gpu::sync();
  rep.compare_outputs("add vs host twin", dout.get(), twin, 0.0);
  const tilecc::bench::stats s = tilecc::bench::time([&] { return launch_add(grid, nullptr, dx.p, dy.p, dout.p, n); });
  rep.expect("add timed", s.error == cudaSuccess && s.samples_ms.size() == 40 && s.min_ms <= s.median_ms);
  std::printf("add: %.4f ms, %.1f GB/s\n", s.median_ms, s.gbps(3.0 * 4 * n));
  return rep.finish();
}
