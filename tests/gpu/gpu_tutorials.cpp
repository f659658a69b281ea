// Triton's tutorials as users port them (kernels/tutorial_kernels.tile.cpp) on the GPU against
// the host twin: the GEMM with a leaky-ReLU epilogue over rows wrapped `% M` (sm_90a: its TMA
// variant), and the fused attention, causal (two loops) and not, the causal one also
// warp-specialised on sm_90a (its two loops read one ring), its output and M = m_i + log2(l_i) (stored from the accumulator's rows), on ragged sizes;
// and the persistent GEMM (tutorial 09; warp-specialised on sm_90a around the user's tile loop) in f16
// and bf16, with few programs for many tiles, more programs than tiles, K of one tile, fewer K
// tiles than stages, K = 0 and N % 8 != 0; and the persistent causal attention (Triton's
// _attn_fwd_persist: the tile index carried by the loop, two key loops per tile) in f16 and bf16.
#include "kernels/tutorial_kernels.tile.cpp"
#include "tutorial_kernels.h"

#include "gpu_check.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace {

using tilecc::half;

void gemm(sample::report& rep, sample::rng& r, int M, int N, int K) {
  auto a = sample::random_vector<half>(r, std::size_t(M) * K), b = sample::random_vector<half>(r, std::size_t(K) * N);
  std::vector<half> c(std::size_t(M) * N, sample::poison<half>());
  auto twin = c;
  const int programs = cdiv(M, 128) * cdiv(N, 256);
  host::launch(programs, tut_matmul<half, 128, 256, 64, 8, 8, 3, true>, a.data(), b.data(), twin.data(), M, N, K, K, 1, N, 1, N, 1);
  gpu::buffer<half> da(a), db(b), dc(c);
  const std::string variant = gpu::launched_variant([&] {
    GPU_CHECK(launch_tut_matmul_half_128_256_64_8_8_3_true(dim3(programs), nullptr, da.as<const __half>(), db.as<const __half>(),
                                                            dc.as<__half>(), M, N, K, K, 1, N, 1, N, 1));
  });
  gpu::sync();
  const std::string what = "GEMM + leaky_relu " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  rep.compare_outputs(what, dc.get(), twin, 2e-3);
  if (N % 8 == 0 && K % 8 == 0) gpu::expect_variant(rep, what, variant, gpu::fast_variant());
}

// The persistent GEMM on `programs` programs (each walks tiles programs apart).
template <class T, class D, int BM, int BN, class L>
void persistent(sample::report& rep, sample::rng& r, const char* type, double tol, int M, int N, int K, int programs, L launch) {
  auto a = sample::random_vector<T>(r, std::size_t(M) * K), b = sample::random_vector<T>(r, std::size_t(K) * N);
  std::vector<T> c(std::size_t(M) * N, sample::poison<T>());
  auto twin = c;
  host::launch(programs, tut_matmul_persistent<T, BM, BN, 64, 8, 8, BN == 256 ? 3 : 4>, a.data(), b.data(), twin.data(), M, N, K, K, N, N);
  gpu::buffer<T> da(a), db(b), dc(c);
  const std::string variant = gpu::launched_variant([&] {
    GPU_CHECK(launch(dim3(programs), nullptr, da.template as<const D>(), db.template as<const D>(), dc.template as<D>(), M, N, K, K, N, N));
  });
  gpu::sync();
  const std::string what = std::string("persistent GEMM ") + type + " " + std::to_string(M) + "x" + std::to_string(N) + "x" +
                           std::to_string(K) + " on " + std::to_string(programs) + " programs (" +
                           std::to_string(cdiv(M, BM) * cdiv(N, BN)) + " tiles)";
  rep.compare_outputs(what, dc.get(), twin, tol);
  if (N % 8 == 0 && K % 8 == 0 && K > 0) gpu::expect_variant(rep, what, variant, gpu::fast_variant());
}

template <int STAGE, bool WS, class L>
void attention(sample::report& rep, sample::rng& r, int Z, int H, int S, L launch) {
  constexpr int D = 64;
  const int64_t sm = D, sh = int64_t(S) * D, sz = sh * H;
  const std::size_t n = std::size_t(Z) * H * S * D;
  auto q = sample::random_vector<half>(r, n), k = sample::random_vector<half>(r, n), v = sample::random_vector<half>(r, n);
  std::vector<half> o(n, sample::poison<half>());
  std::vector<float> m(std::size_t(Z) * H * S, sample::poison<float>());
  auto twin = o;
  auto mtwin = m;
  const float scale = 1.0f / std::sqrt(float(D));
  host::launch({cdiv(S, 128), Z * H}, tut_attn_fwd<D, 128, 64, STAGE, 8, 3, WS>, q.data(), k.data(), v.data(), scale, mtwin.data(),
               twin.data(), sz, sh, sm, int64_t(1), sz, sh, sm, int64_t(1), sz, sh, sm, int64_t(1), sz, sh, sm, int64_t(1), H, S);
  gpu::buffer<half> dq(q), dk(k), dv(v), dout(o);
  gpu::buffer<float> dm(m);
  const std::string variant = gpu::launched_variant([&] {
    GPU_CHECK(launch(dim3(cdiv(S, 128), Z * H), nullptr, dq.as<const __half>(), dk.as<const __half>(), dv.as<const __half>(), scale,
                     dm.as<float>(), dout.as<__half>(), sz, sh, sm, int64_t(1), sz, sh, sm, int64_t(1), sz, sh, sm, int64_t(1), sz, sh,
                     sm, int64_t(1), H, S));
  });
  gpu::sync();
  const std::string what = std::string(STAGE == 3 ? "causal" : "non-causal") + (WS ? " warp-specialised" : "") + " attention Z=" + std::to_string(Z) + " H=" +
                           std::to_string(H) + " N_CTX=" + std::to_string(S);
  rep.compare_outputs(what + ", output", dout.get(), twin, 5e-3);
  // Rows past N_CTX are not stored: poison stays in both.
  rep.compare_outputs(what + ", M", dm.get(), mtwin, 1e-4);
  if (S % 8 == 0) gpu::expect_variant(rep, what, variant, gpu::fast_variant());
}

// The persistent causal attention on `programs` programs: D = 64 with 64-key blocks (a TMA store
// buffer), in f16 and bf16 (T, the host type; G, the launcher's), D = 128 with 128-key blocks
// (three key/value stages, the store direct).
template <class T, class G, int D, int BN, class Launch>
void attention_persist(sample::report& rep, sample::rng& r, const char* type, double tol, int Z, int H, int S, int programs,
                       Launch launch) {
  const std::size_t n = std::size_t(Z) * H * S * D;
  auto q = sample::random_vector<T>(r, n), k = sample::random_vector<T>(r, n), v = sample::random_vector<T>(r, n);
  std::vector<T> o(n, sample::poison<T>());
  std::vector<float> m(std::size_t(Z) * H * S, sample::poison<float>());
  auto twin = o;
  auto mtwin = m;
  const float scale = 1.0f / std::sqrt(float(D));
  host::launch(programs, tut_attn_persist<T, D, 128, BN, 3, 8, 3>, q.data(), k.data(), v.data(), scale, mtwin.data(), twin.data(), Z,
               H, S);
  gpu::buffer<T> dq(q), dk(k), dv(v), dout(o);
  gpu::buffer<float> dm(m);
  const std::string variant = gpu::launched_variant([&] {
    GPU_CHECK(launch(dim3(programs), nullptr, dq.template as<const G>(), dk.template as<const G>(), dv.template as<const G>(), scale,
                     dm.as<float>(), dout.template as<G>(), Z, H, S));
  });
  gpu::sync();
  const std::string what = std::string("persistent causal attention ") + type + " D=" + std::to_string(D) + " Z=" + std::to_string(Z) +
                           " H=" + std::to_string(H) + " N_CTX=" + std::to_string(S) + " on " + std::to_string(programs) +
                           " programs (" + std::to_string(cdiv(S, 128) * Z * H) + " tiles)";
  rep.compare_outputs(what + ", output", dout.get(), twin, tol);
  rep.compare_outputs(what + ", M", dm.get(), mtwin, 1e-4);
  if (S % 8 == 0) gpu::expect_variant(rep, what, variant, gpu::fast_variant());
}

}  // namespace

int main() {
  setenv("TILECC_LOG_LAUNCH", "1", 1);  // read once, at the first launch: launched_variant needs it
  gpu::require_gpu();
  sample::report rep("tutorial ports (GPU vs host twin)");
  sample::rng r;
  gemm(rep, r, 256, 512, 128);
  gemm(rep, r, 100 + r.range(1, 200), 264, 136);                             // rows wrapped % M in the last tile
  gemm(rep, r, 300 + r.range(1, 100), 8 * (40 + r.range(1, 40)), 8 * r.range(2, 30));
  gemm(rep, r, 200, 257, 100);                                               // N % 8 != 0: no TMA
  {
    auto f16 = [&](int M, int N, int K, int programs) {
      persistent<tilecc::half, __half, 128, 256>(rep, r, "f16", 2e-3, M, N, K, programs, launch_tut_matmul_persistent_half_128_256_64_8_8_3);
    };
    auto bf16 = [&](int M, int N, int K, int programs) {
      persistent<tilecc::bfloat16, __nv_bfloat16, 128, 128>(rep, r, "bf16", 1e-2, M, N, K, programs,
                                                              launch_tut_matmul_persistent_bfloat16_128_128_64_8_8_4);
    };
    f16(512, 1024, 256, 132);                                         // 16 tiles: some programs have none
    f16(300 + r.range(1, 300), 8 * (60 + r.range(1, 100)), 8 * r.range(2, 40), 3);  // ragged; many tiles per program
    f16(384, 768, 64, 2);                                             // K of one tile
    f16(257, 512, 72, 1);                                             // two K tiles, three stages: one program does all
    f16(200, 264, 0, 4);                                              // K = 0: zeros (no TMA descriptor for an empty dim)
    f16(130, 257, 100, 5);                                            // N % 8 != 0: no TMA
    bf16(256 + r.range(1, 300), 8 * (20 + r.range(1, 60)), 8 * r.range(2, 40), 7);
    bf16(128, 128, 8 * r.range(1, 7), 1);                             // one tile, fewer K tiles than stages
  }
  auto persist_sizes = [&](auto run) {
    run(1, 2, 512, 3);                        // 8 tiles on 3 programs
    run(2, 1, 8 * (40 + r.range(1, 40)), 1);  // one program walks every tile
    run(1, 3, 64 + r.range(1, 64), 5);        // ragged N_CTX, one tile per head
    run(1, 1, 400 + r.range(1, 200), 132);    // more programs than tiles
  };
  persist_sizes([&](int z, int h, int s, int p) {
    attention_persist<tilecc::half, __half, 64, 64>(rep, r, "f16", 5e-3, z, h, s, p, launch_tut_attn_persist_half_64_128_64_3_8_3);
  });
  persist_sizes([&](int z, int h, int s, int p) {
    attention_persist<tilecc::half, __half, 128, 128>(rep, r, "f16", 5e-3, z, h, s, p, launch_tut_attn_persist_half_128_128_128_3_8_3);
  });
  persist_sizes([&](int z, int h, int s, int p) {
    attention_persist<tilecc::bfloat16, __nv_bfloat16, 64, 64>(rep, r, "bf16", 2e-2, z, h, s, p,
                                                                launch_tut_attn_persist_bfloat16_64_128_64_3_8_3);
  });
  for (int S : {128, 256, 64 + r.range(1, 64), 8 * (40 + r.range(1, 40)), 400 + r.range(1, 200)}) {
    attention<3, false>(rep, r, 1, 2, S, launch_tut_attn_fwd_64_128_64_3_8_3_false);
    attention<3, true>(rep, r, 1, 2, S, launch_tut_attn_fwd_64_128_64_3_8_3_true);
    attention<1, false>(rep, r, 2, 1, S, launch_tut_attn_fwd_64_128_64_1_8_3_false);
  }
  return rep.finish();
}
