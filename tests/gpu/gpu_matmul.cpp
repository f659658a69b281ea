#include "matmul/matmul.tile.cpp"
#include "matmul.h"

#include "gpu_check.hpp"

#include <string>

// One problem: the GPU and the host twin on the same random inputs. N, K and leading dimensions
// that are multiples of 8 take the launcher's specialised variants; odd ones the general kernel.
template <class T, bool HAS_BIAS, activation ACT, class D, int BN = 128, class L>
void run(sample::report& rep, sample::rng& r, int M, int N, int K, bool aligned, L launch, double tol, const char* variant = nullptr) {
  constexpr int BM = 128;
  const int64_t lda = aligned ? K : K + r.range(1, 3), ldb = aligned ? N : N + r.range(1, 3), ldc = aligned ? N : N + r.range(1, 3);
  auto a = sample::random_vector<T>(r, M * lda), b = sample::random_vector<T>(r, K * ldb);
  auto bias = sample::random_vector<T>(r, N);
  std::vector<T> c(M * ldc, sample::poison<T>());
  auto twin = c;
  host::launch(cdiv(M, BM) * cdiv(N, BN), matmul<T, BM, BN, 64, 8, HAS_BIAS, ACT>, a.data(), b.data(), twin.data(),
               HAS_BIAS ? bias.data() : nullptr, M, N, K, lda, ldb, ldc);
  gpu::buffer<T> da(a), db(b), dc(c), dbias(bias);
  const std::string took = gpu::launched_variant([&] {
    GPU_CHECK(launch(dim3(cdiv(M, BM) * cdiv(N, BN)), nullptr, da.template as<const D>(), db.template as<const D>(),
                     dc.template as<D>(), HAS_BIAS ? dbias.template as<const D>() : nullptr, M, N, K, lda, ldb, ldc));
    gpu::sync();
  });
  const std::string what = std::string(std::is_same_v<T, tilecc::half> ? "half" : "bf16") + (HAS_BIAS ? " +bias" : "") +
                           (ACT == activation::relu ? " relu" : ACT == activation::gelu ? " gelu" : "") + " " +
                           std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + (aligned ? " aligned" : "");
  rep.compare_outputs(what, dc.get(), twin, tol);
  if (variant) gpu::expect_variant(rep, what, took, variant);  // `_tma`, `_aligned` or "general"
}

int main() {
  setenv("TILECC_LOG_LAUNCH", "1", 1);  // read once, at the first launch
  gpu::require_gpu();
  sample::report rep("matmul (GPU vs host twin)");
  sample::rng r;
  using tilecc::bfloat16;
  using tilecc::half;
  run<half, false, activation::none, __half>(rep, r, 256, 256, 128, true, launch_matmul_half_128_128_64_8_false_none, 2e-3);
  run<half, false, activation::none, __half>(rep, r, 512, 384, 1024, true, launch_matmul_half_128_128_64_8_false_none, 2e-3);
  // Aligned, with K not a multiple of BK: the pipeline's last copies are partly zero-filled.
  run<half, false, activation::none, __half>(rep, r, 256, 256, 80, true, launch_matmul_half_128_128_64_8_false_none, 2e-3);
  run<half, false, activation::none, __half>(rep, r, 128, 128, 16, true, launch_matmul_half_128_128_64_8_false_none, 2e-3);
  // Aligned with ragged M and N (TMA boxes past the edge are zero-filled; rows of A past M wrap
  // in the source and are never stored), K of one tile, K shorter than the pipeline.
  run<half, false, activation::none, __half>(rep, r, 200, 144, 176, true, launch_matmul_half_128_128_64_8_false_none, 2e-3);
  run<half, false, activation::none, __half>(rep, r, 333, 208, 64, true, launch_matmul_half_128_128_64_8_false_none, 2e-3);
  run<half, false, activation::none, __half>(rep, r, 1 + r.range(1, 300), 16 * r.range(1, 20), 16 * r.range(1, 20), true,
                                             launch_matmul_half_128_128_64_8_false_none, 2e-3);
  // Sizes ≡ 8 (mod 16): 16 bytes of f16 are 8 elements, so these take the specialised variants
  // (TMA on sm_90a, 16-byte cp.async on sm_80), whose launcher asks N, K and the leading
  // dimensions to be multiples of 8; an odd leading dimension takes the general kernel.
  const char* fast = gpu::fast_variant();
  run<half, false, activation::none, __half>(rep, r, 200, 136, 120, true, launch_matmul_half_128_128_64_8_false_none, 2e-3, fast);
  run<half, false, activation::none, __half>(rep, r, 1 + r.range(1, 300), 16 * r.range(1, 20) + 8, 16 * r.range(1, 20) + 8, true,
                                             launch_matmul_half_128_128_64_8_false_none, 2e-3, fast);
  run<half, false, activation::none, __half, 256>(rep, r, 300, 264, 200, true, launch_matmul_half_128_256_64_8_false_none, 2e-3, fast);
  run<bfloat16, true, activation::relu, __nv_bfloat16>(rep, r, 77, 40, 88, true, launch_matmul_bfloat16_128_128_64_8_true_relu, 1e-2, fast);
  run<half, false, activation::none, __half>(rep, r, 200, 136, 120, false, launch_matmul_half_128_128_64_8_false_none, 2e-3,
                                             "general");
  run<bfloat16, true, activation::relu, __nv_bfloat16>(rep, r, 77, 48, 112, true, launch_matmul_bfloat16_128_128_64_8_true_relu, 1e-2);
  // The 128x256 tile (m64n256 wgmma on sm_90a).
  run<half, false, activation::none, __half, 256>(rep, r, 300, 272, 208, true, launch_matmul_half_128_256_64_8_false_none, 2e-3);
  run<bfloat16, false, activation::none, __nv_bfloat16, 256>(rep, r, 1 + r.range(1, 300), 1 + r.range(1, 300), 1 + r.range(1, 300),
                                                             false, launch_matmul_bfloat16_128_256_64_8_false_none, 1e-2);
  run<half, false, activation::none, __half>(rep, r, 100 + r.range(1, 200), 60 + r.range(1, 200), 30 + r.range(1, 150), false,
                                             launch_matmul_half_128_128_64_8_false_none, 2e-3);
  run<half, true, activation::gelu, __half>(rep, r, 130 + r.range(1, 100), 140 + r.range(1, 100), 64 + r.range(1, 100), false,
                                            launch_matmul_half_128_128_64_8_true_gelu, 2e-3);
  run<half, true, activation::gelu, __half>(rep, r, 256, 128, 192, true, launch_matmul_half_128_128_64_8_true_gelu, 2e-3);
  run<bfloat16, false, activation::none, __nv_bfloat16>(rep, r, 129, 257, 65, false,
                                                        launch_matmul_bfloat16_128_128_64_8_false_none, 1e-2);
  run<bfloat16, false, activation::none, __nv_bfloat16>(rep, r, 384, 256, 320, true,
                                                        launch_matmul_bfloat16_128_128_64_8_false_none, 1e-2);
  run<bfloat16, true, activation::relu, __nv_bfloat16>(rep, r, 1 + r.range(1, 200), 1 + r.range(1, 200), 1 + r.range(1, 200),
                                                       false, launch_matmul_bfloat16_128_128_64_8_true_relu, 1e-2);
  // The fp16 family: every configuration through launch_..._config and the dispatching launcher
  // (which computes the grid itself), at ragged shapes with padded and unpadded strides.
  for (const bool aligned : {true, false}) {
    const int M = 1 + r.range(1, 300), N = aligned ? 16 * r.range(1, 20) : 1 + r.range(1, 300), K = aligned ? 16 * r.range(1, 20) : 1 + r.range(1, 300);
    const int64_t lda = aligned ? K : K + r.range(1, 3), ldb = aligned ? N : N + r.range(1, 3), ldc = aligned ? N : N + r.range(1, 3);
    auto a = sample::random_vector<half>(r, M * lda), b = sample::random_vector<half>(r, K * ldb);
    std::vector<half> twin(M * ldc, sample::poison<half>());
    host::launch(cdiv(M, 128) * cdiv(N, 128), matmul<half, 128, 128, 64, 8, false, activation::none>, a.data(), b.data(), twin.data(),
                 nullptr, M, N, K, lda, ldb, ldc);
    gpu::buffer<half> da(a), db(b);
    const std::string shape = std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + (aligned ? " aligned" : "");
    for (int i = -1; i < matmul_half_false_none_config_count; ++i) {
      gpu::buffer<half> dc(std::vector<half>(M * ldc, sample::poison<half>()));
      const __half *pa = da.as<const __half>(), *pb = db.as<const __half>();
      GPU_CHECK(i < 0 ? launch_matmul_half_false_none(nullptr, pa, pb, dc.as<__half>(), nullptr, M, N, K, lda, ldb, ldc)
                      : launch_matmul_half_false_none_config(i, nullptr, pa, pb, dc.as<__half>(), nullptr, M, N, K, lda, ldb, ldc));
      gpu::sync();
      rep.compare_outputs("family " + (i < 0 ? std::string("dispatched") : matmul_half_false_none_configs[i]) + " " + shape, dc.get(), twin,
                          2e-3);
    }
  }
  return rep.finish();
}
