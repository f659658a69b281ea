// The split-K GEMMs (kernels/split_k_kernels.tile.cpp) on the GPU against the host twin: ragged
// M and N, K tails, slices that are empty (more slices than blocks of K), one slice, and a
// misaligned K or C (the general kernel: scalar atomics). C starts at zero: the epilogue adds
// into it.
#include "kernels/split_k_kernels.tile.cpp"
#include "split_k_kernels.h"

#include "gpu_check.hpp"

#include <string>

namespace {

void run(sample::report& rep, sample::rng& r, int M, int N, int K, int splits, bool strided, std::size_t shift = 0) {
  using tilecc::half;
  auto a = sample::random_vector<half>(r, std::size_t(M) * K), b = sample::random_vector<half>(r, std::size_t(K) * N);
  std::vector<float> c(std::size_t(M) * N + shift, 0.0f);
  auto twin = c;
  gpu::buffer<half> da(a), db(b);
  gpu::buffer<float> dc(c);
  std::string name;
  if (strided) {
    const tilecc::host::grid g{cdiv(M, 128), cdiv(N, 128), 4};
    host::launch(g, matmul_split_k_strided<128, 128, 64, 4>, a.data(), b.data(), twin.data() + shift, M, N, K);
    GPU_CHECK(launch_matmul_split_k_strided_128_128_64_4(dim3(g.x, g.y, g.z), nullptr, da.as<const __half>(), db.as<const __half>(),
                                                         dc.p + shift, M, N, K));
    name = "Triton's split-K (4 interleaved slices)";
  } else {
    const int blocks = cdiv(cdiv(K, 64), splits);
    const tilecc::host::grid g{cdiv(M, 128), cdiv(N, 128), splits};
    host::launch(g, matmul_split_k<128, 128, 64>, a.data(), b.data(), twin.data() + shift, M, N, K, blocks);
    GPU_CHECK(launch_matmul_split_k_128_128_64(dim3(g.x, g.y, g.z), nullptr, da.as<const __half>(), db.as<const __half>(),
                                               dc.p + shift, M, N, K, blocks));
    name = "split-K, " + std::to_string(splits) + " slices of " + std::to_string(blocks) + " blocks";
  }
  gpu::sync();
  rep.compare_outputs(name + ", " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + (shift ? ", C misaligned" : ""),
                      dc.get(), twin, 2e-3);
}

}  // namespace

int main() {
  gpu::require_gpu();
  sample::report rep("split-K matmul (GPU vs host twin)");
  sample::rng r;
  for (bool strided : {false, true}) {
    run(rep, r, 256, 256, 1024, 4, strided);
    run(rep, r, 200, 136, 1000, 3, strided);   // ragged M and N, a K tail
    run(rep, r, 128, 128, 64, 1, strided);     // one block of K
    run(rep, r, 130, 256, 200, 8, strided);    // slices past the end of K (empty loops)
    run(rep, r, 128, 128, 1000 + 8, 2, strided);
    run(rep, r, 96, 64, 1001, 2, strided);     // K odd: the general kernel
    run(rep, r, 256, 128, 512, 2, strided, 1);  // C misaligned: the general kernel
    run(rep, r, 1 + r.range(1, 300), 8 + 16 * r.range(1, 12), 16 * r.range(1, 60), 1 + r.range(1, 5), strided);
  }
  return rep.finish();
}
