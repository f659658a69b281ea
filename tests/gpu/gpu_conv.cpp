// The implicit-GEMM 3x3 convolution (kernels/conv_kernels.tile.cpp) on the GPU against the host
// twin: ragged images (rows and columns that are not multiples of anything), channel counts
// that are multiples of 16 (the promise) and filter counts that are not, misaligned output
// (the general kernel) and aligned (the specialised one: gathered with 16-byte cp.async, and by
// taps on sm_90a copied by TMA, the input in im2col mode).
#include "kernels/conv_kernels.tile.cpp"
#include "conv_kernels.h"

#include "gpu_check.hpp"

#include <cstdlib>
#include <string>

namespace {

void run(sample::report& rep, sample::rng& r, int n, int h, int w, int c, int f, bool aligned) {
  using tilecc::half;
  auto x = sample::random_vector<half>(r, std::size_t(n) * h * w * c);
  auto wt = sample::random_vector<half>(r, std::size_t(f) * 9 * c);
  const std::size_t shift = aligned ? 0 : 1;  // a misaligned output takes the general kernel
  std::vector<half> y(std::size_t(n) * h * w * f + shift, sample::poison<half>());
  auto twin = y;
  const std::string shape = std::to_string(n) + "x" + std::to_string(h) + "x" + std::to_string(w) + "x" + std::to_string(c) +
                            " -> " + std::to_string(f) + (aligned ? "" : ", misaligned output");
  // Every form and configuration against the twin of the first (they compute the same sums).
  const dim3 grid(cdiv(n * h * w, 128), cdiv(f, 128));
  host::launch({int(grid.x), int(grid.y)}, conv3x3<128, 128, 32, 3>, x.data(), wt.data(), twin.data() + shift, n, h, w, c, f);
  using Launch = cudaError_t (*)(dim3, cudaStream_t, const __half*, const __half*, __half*, int, int, int, int, int);
  const struct {
    const char* name;
    Launch launch;
    int bm;
  } kernels[] = {{"conv3x3<128, 128, 32, 3>", launch_conv3x3_128_128_32_3, 128},
                 {"conv3x3_taps<128, 128, 64, 3>", launch_conv3x3_taps_128_128_64_3, 128},
                 {"conv3x3_taps<256, 128, 64, 3>", launch_conv3x3_taps_256_128_64_3, 256}};
  gpu::buffer<half> dx(x), dw(wt);
  for (const auto& k : kernels) {
    gpu::buffer<half> dy(y);
    const std::string variant = gpu::launched_variant([&] {
      GPU_CHECK(k.launch(dim3(cdiv(n * h * w, k.bm), cdiv(f, 128)), nullptr, dx.as<const __half>(), dw.as<const __half>(),
                         dy.as<__half>() + shift, n, h, w, c, f));
    });
    gpu::sync();
    rep.compare_outputs(std::string(k.name) + ", " + shape, dy.get(), twin, 3e-3);
    // By taps, aligned (and output rows of 16 bytes): the input through TMA's im2col mode and the
    // weights as a 3-d box on sm_90a.
    if (k.launch != launch_conv3x3_128_128_32_3)
      gpu::expect_variant(rep, std::string(k.name) + ", " + shape, variant, aligned && f % 8 == 0 ? gpu::fast_variant() : "general");
  }
}

}  // namespace

int main() {
  setenv("TILECC_LOG_LAUNCH", "1", 1);  // read once, at the first launch
  gpu::require_gpu();
  sample::report rep("conv3x3 (GPU vs host twin)");
  sample::rng r;
  run(rep, r, 2, 8, 8, 32, 128, true);
  run(rep, r, 3, 7, 9, 16, 48, true);
  run(rep, r, 1, 13, 5, 64, 200, true);
  run(rep, r, 2, 5 + r.range(1, 9), 5 + r.range(1, 9), 16 * r.range(1, 4), 1 + r.range(1, 150), true);
  run(rep, r, 2, 6, 7, 32, 64, false);
  // Images that end inside a tile, one pixel wide or high, channels in one partial block.
  run(rep, r, 3, 1, 11, 48, 130, true);
  run(rep, r, 1, 9, 1, 80, 16, true);
  run(rep, r, 5, 3, 3, 16, 136, true);
  // k0 = 3: kk = k - 192 is negative in the first programs; k0 = 12: off = -256 in every one;
  // k0 = -5: the launcher takes the general kernel (the aligned one assumes k0 >= 0).
  for (int k0 : {0, 3, 12, -5}) {
    using tilecc::half;
    const int c = 32, programs = 64;
    auto x = sample::random_vector<half>(r, 16384);
    std::vector<half> y(20480, sample::poison<half>());
    auto twin = y;
    host::launch(programs, gather_div_rem, x.data(), twin.data(), c, k0);
    gpu::buffer<half> dx(x), dy(y);
    const std::string variant = gpu::launched_variant([&] {
      GPU_CHECK(launch_gather_div_rem(dim3(programs), nullptr, dx.as<const __half>(), dy.as<__half>(), c, k0));
    });
    gpu::sync();
    rep.compare_outputs("gather_div_rem: / % & >> in addresses, k0 = " + std::to_string(k0), dy.get(), twin, 0.0);
    rep.expect("gather_div_rem, k0 = " + std::to_string(k0) + ": launched " + variant,
               variant == (k0 == 0 ? "gather_div_rem_aligned" : "gather_div_rem"));
  }
  // A periodic halo, start = program_id(0) * 64 - back, negative in program 0 for back > 0 (a
  // trap there before the launcher bounded it): the aligned variant while c - back >= 0 over the
  // grid, the general kernel beyond (back = 48: negative remainders, read before x + 64).
  for (int back : {0, 16, 32, 48}) {
    using tilecc::half;
    const int c = 32, programs = 16;
    auto x = sample::random_vector<half>(r, 64 + c);
    std::vector<half> y(programs * 64, sample::poison<half>());
    auto twin = y;
    host::launch(programs, halo_rows, x.data(), twin.data(), c, back);
    gpu::buffer<half> dx(x), dy(y);
    const std::string variant = gpu::launched_variant([&] {
      GPU_CHECK(launch_halo_rows(dim3(programs), nullptr, dx.as<const __half>(), dy.as<__half>(), c, back));
    });
    gpu::sync();
    rep.compare_outputs("halo_rows, back = " + std::to_string(back), dy.get(), twin, 0.0);
    rep.expect("halo_rows, back = " + std::to_string(back) + ": launched " + variant,
               variant == (back <= c ? "halo_rows_aligned" : "halo_rows"));
  }
  return rep.finish();
}
