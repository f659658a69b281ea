// The dot kernels (kernels/dot_kernels.tile.cpp) on the GPU against the host twin.
#include "kernels/dot_kernels.tile.cpp"
#include "dot_kernels.h"

#include "gpu_check.hpp"

#include <cmath>
#include <cstdlib>
#include <string>
#include <type_traits>

template <class T>
std::vector<T> small_ints(sample::rng& r, std::size_t n) {
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(r.range(-128, 127));
  return v;
}

// c = kernel(inputs...) on the GPU and in the twin; D is the launcher's element type.
template <class T, class D, class C, int M, int N, int K, class L>
void plain(sample::report& rep, sample::rng& r, const char* what, L launch, double tol) {
  std::vector<T> a, b;
  if constexpr (std::is_same_v<T, int8_t>) {
    a = small_ints<T>(r, M * K);
    b = small_ints<T>(r, K * N);
  } else {
    a = sample::random_vector<T>(r, M * K);
    b = sample::random_vector<T>(r, K * N);
  }
  std::vector<C> c(M * N, C(0)), twin = c;
  host::launch(1, dot_plain<T, M, N, K>, a.data(), b.data(), twin.data());
  gpu::buffer<T> da(a), db(b);
  gpu::buffer<C> dc(c);
  GPU_CHECK(launch(dim3(1), nullptr, da.template as<const D>(), db.template as<const D>(), dc.p));
  gpu::sync();
  if constexpr (std::is_same_v<C, int>)
    rep.expect(what, dc.get() == twin);  // integer products are exact
  else
    rep.compare_outputs(what, dc.get(), twin, tol);
}

// A half GEMM into float C (M x N x K, programs of BM x 128 rows and columns) on the GPU and in
// the twin; `kernel` and `launch` take (a, b, c, M, N, K), A holding M * K elements in its layout.
template <class Kernel, class Launch>
void half_gemm(sample::report& rep, sample::rng& r, const std::string& what, int M, int N, int K, int BM, Kernel kernel,
               Launch launch, const char* variant = nullptr) {
  using tilecc::half;
  auto a = sample::random_vector<half>(r, std::size_t(M) * K), b = sample::random_vector<half>(r, std::size_t(K) * N);
  std::vector<float> c(std::size_t(M) * N, sample::poison<float>()), twin = c;
  const dim3 grid(cdiv(M, BM), cdiv(N, 128));
  host::launch({int(grid.x), int(grid.y)}, kernel, a.data(), b.data(), twin.data(), M, N, K);
  gpu::buffer<half> da(a), db(b);
  gpu::buffer<float> dc(c);
  const std::string took = gpu::launched_variant([&] {
    GPU_CHECK(launch(grid, nullptr, da.as<const __half>(), db.as<const __half>(), dc.p, M, N, K));
    gpu::sync();
  });
  const std::string shape = what + " " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  rep.compare_outputs(shape, dc.get(), twin, 1e-4);
  if (variant) gpu::expect_variant(rep, shape, took, variant);  // `_tma`, `_aligned` or "general"
}

// Block-sparse GEMM (a mask per row block and K block, about half set, a row block with none)
// and a GEMM over a list of K blocks (any order, repeats, possibly empty), with `sparse` and
// `listed` the launches they must take.
void sparse_gemms(sample::report& rep, sample::rng& r, int M, int N, int K, const char* sparse, const char* listed) {
  using tilecc::half;
  auto a = sample::random_vector<half>(r, std::size_t(M) * K), b = sample::random_vector<half>(r, std::size_t(K) * N);
  const int kblocks = cdiv(K, 64), mblocks = cdiv(M, 128);
  const dim3 grid(mblocks, cdiv(N, 128));
  const std::string shape = std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  gpu::buffer<half> da(a), db(b);
  auto run = [&](const std::string& what, const std::vector<int>& list, const char* variant, auto twin_launch, auto gpu_launch) {
    std::vector<float> c(std::size_t(M) * N, sample::poison<float>()), twin = c;
    twin_launch(twin.data());
    gpu::buffer<int> dl(list.empty() ? std::vector<int>{0} : list);
    gpu::buffer<float> dc(c);
    const std::string took = gpu::launched_variant([&] {
      GPU_CHECK(gpu_launch(da.as<const __half>(), db.as<const __half>(), static_cast<const int*>(dl.p), dc.p));
      gpu::sync();
    });
    rep.compare_outputs(what + " " + shape, dc.get(), twin, 1e-4);
    gpu::expect_variant(rep, what + " " + shape, took, variant);
  };
  std::vector<int> mask(std::size_t(mblocks) * kblocks);
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = i < std::size_t(kblocks) && mblocks > 1 ? 0 : int(r.range(0, 1));
  run("block-sparse", mask, sparse, [&](float* t) { host::launch({int(grid.x), int(grid.y)}, dot_sparse_gemm, a.data(), b.data(), mask.data(), t, M, N, K); },
      [&](const __half* pa, const __half* pb, const int* pm, float* pc) { return launch_dot_sparse_gemm(grid, nullptr, pa, pb, pm, pc, M, N, K); });
  std::vector<int> list(std::size_t(r.range(0, kblocks + 3)));
  for (int& e : list) e = int(r.range(0, kblocks - 1));
  const int n = int(list.size());
  run("listed K blocks (" + std::to_string(n) + ")", list, listed,
      [&](float* t) { host::launch({int(grid.x), int(grid.y)}, dot_listed_gemm, a.data(), b.data(), list.data(), n, t, M, N, K); },
      [&](const __half* pa, const __half* pb, const int* pl, float* pc) { return launch_dot_listed_gemm(grid, nullptr, pa, pb, pl, n, pc, M, N, K); });
}

int main() {
  setenv("TILECC_LOG_LAUNCH", "1", 1);  // read once, at the first launch
  gpu::require_gpu();
  sample::report rep("dot (GPU vs host twin)");
  sample::rng r;
  using tilecc::bfloat16;
  using tilecc::half;
  plain<half, __half, float, 16, 16, 16>(rep, r, "half 16x16x16 (warps replicate)", launch_dot_plain_half_16_16_16, 1e-5);
  plain<half, __half, float, 64, 32, 64>(rep, r, "half 64x32x64", launch_dot_plain_half_64_32_64, 1e-5);
  plain<bfloat16, __nv_bfloat16, float, 32, 128, 32>(rep, r, "bf16 32x128x32", launch_dot_plain_bfloat16_32_128_32, 1e-5);
  plain<float, float, float, 32, 32, 32>(rep, r, "float 32x32x32 (IEEE)", launch_dot_plain_float_32_32_32, 0.0);
  plain<int8_t, int8_t, int, 32, 64, 16>(rep, r, "int8 32x64x16 exact", launch_dot_plain_int8_32_64_16, 0.0);
  plain<int8_t, int8_t, int, 64, 16, 64>(rep, r, "int8 64x16x64 exact", launch_dot_plain_int8_64_16_64, 0.0);
  {
    auto a = sample::random_vector<float>(r, 64 * 32), b = sample::random_vector<float>(r, 32 * 64);
    std::vector<float> c(64 * 64, 0.0f), twin = c;
    host::launch(1, dot_tf32, a.data(), b.data(), twin.data());
    gpu::buffer<float> da(a), db(b), dc(c);
    GPU_CHECK(launch_dot_tf32(dim3(1), nullptr, da.p, db.p, dc.p));
    gpu::sync();
    rep.compare_outputs("tf32 64x64x32", dc.get(), twin, 1e-5);
  }
  {
    auto a = sample::random_vector<half>(r, 32 * 32), b = sample::random_vector<half>(r, 32 * 32);
    std::vector<float> c(32 * 32, 0.0f), twin = c;
    host::launch(1, dot_one_warp, a.data(), b.data(), twin.data());
    gpu::buffer<half> da(a), db(b);
    gpu::buffer<float> dc(c);
    GPU_CHECK(launch_dot_one_warp(dim3(1), nullptr, da.as<const __half>(), db.as<const __half>(), dc.p));
    gpu::sync();
    rep.compare_outputs("one warp, computed operands", dc.get(), twin, 1e-5);
  }
  {
    auto a = sample::random_vector<half>(r, 128 * 32), b = sample::random_vector<half>(r, 32 * 64);
    std::vector<float> c(128 * 64, 0.0f), twin = c;
    host::launch(1, dot_eight_warps, a.data(), b.data(), twin.data());
    gpu::buffer<half> da(a), db(b);
    gpu::buffer<float> dc(c);
    GPU_CHECK(launch_dot_eight_warps(dim3(1), nullptr, da.as<const __half>(), db.as<const __half>(), dc.p));
    gpu::sync();
    rep.compare_outputs("eight warps 128x64x32", dc.get(), twin, 1e-5);
  }
  {
    auto at = sample::random_vector<half>(r, 32 * 64), bt = sample::random_vector<half>(r, 64 * 32),
         d = sample::random_vector<half>(r, 64 * 64);
    std::vector<float> c(64 * 64, 0.0f), twin = c;
    host::launch(1, dot_trans_chain, at.data(), bt.data(), d.data(), twin.data());
    gpu::buffer<half> dat(at), dbt(bt), dd(d);
    gpu::buffer<float> dc(c);
    GPU_CHECK(launch_dot_trans_chain(dim3(1), nullptr, dat.as<const __half>(), dbt.as<const __half>(), dd.as<const __half>(), dc.p));
    gpu::sync();
    rep.compare_outputs("transposed operands, chained dots", dc.get(), twin, 2e-3);
  }
  for (int i = 0; i < 2; ++i) {
    const int M = i ? 64 : 1 + r.range(1, 200), N = i ? 64 : 1 + r.range(1, 63), K = i ? 96 : 1 + r.range(1, 200);
    auto a = sample::random_vector<bfloat16>(r, M * K), b = sample::random_vector<bfloat16>(r, K * N);
    std::vector<float> c(M * N, sample::poison<float>()), twin = c;
    host::launch(cdiv(M, 64), dot_loop, a.data(), b.data(), twin.data(), M, N, K);
    gpu::buffer<bfloat16> da(a), db(b);
    gpu::buffer<float> dc(c);
    GPU_CHECK(launch_dot_loop(dim3(cdiv(M, 64)), nullptr, da.as<const __nv_bfloat16>(), db.as<const __nv_bfloat16>(), dc.p, M, N, K));
    gpu::sync();
    rep.compare_outputs("K loop " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K), dc.get(), twin, 1e-5);
  }
  // Block pointers: aligned leading dimensions (the TMA variant on sm_90a) with ragged M, N, K
  // and K of one tile; odd ones (the general kernel).
  for (int i = 0; i < 5; ++i) {
    const bool aligned = i < 4;
    const int M = i == 0 ? 200 : i == 1 ? 128 : 1 + r.range(1, 300);
    const int N = i == 0 ? 144 : i == 1 ? 128 : aligned ? 16 * r.range(1, 20) : 1 + r.range(1, 300);
    const int K = i == 0 ? 176 : i == 1 ? 64 : aligned ? 16 * r.range(1, 20) : 1 + r.range(1, 300);
    const int64_t lda = aligned ? K : K + 3, ldb = aligned ? N : N + 1, ldc = aligned ? N : N + 5;
    auto a = sample::random_vector<bfloat16>(r, M * lda), b = sample::random_vector<bfloat16>(r, K * ldb);
    std::vector<float> c(M * ldc, sample::poison<float>()), twin = c;
    const int grid = cdiv(M, 128) * cdiv(N, 128);
    host::launch(grid, dot_block_gemm, a.data(), b.data(), twin.data(), M, N, K, lda, ldb, ldc);
    gpu::buffer<bfloat16> da(a), db(b);
    gpu::buffer<float> dc(c);
    GPU_CHECK(launch_dot_block_gemm(dim3(grid), nullptr, da.as<const __nv_bfloat16>(), db.as<const __nv_bfloat16>(), dc.p, M, N, K,
                                    lda, ldb, ldc));
    gpu::sync();
    rep.compare_outputs("block-pointer GEMM " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + (aligned ? " aligned" : ""),
               dc.get(), twin, 1e-4);
  }
  // Sixteen warps, warp-specialised on sm_90a (aligned: TMA; odd N: the general kernel): ragged
  // M and N, K of one tile and with a tail.
  for (int i = 0; i < 4; ++i) {
    const int M = i == 0 ? 256 : 1 + r.range(1, 600), N = i == 3 ? 100 + 2 * r.range(0, 20) + 1 : 16 * r.range(1, 20);
    const int K = i == 0 ? 64 : 16 * r.range(1, 24);
    half_gemm(rep, r, "sixteen warps", M, N, K, 256, dot_wide_gemm, launch_dot_wide_gemm);
  }
  // Aᵀ·B from at[K][M] (M-major A: TMA and a transposed-A wgmma on sm_90a when aligned,
  // cp.async and ldmatrix.trans on sm_80; ragged M: the general kernel): K of one tile, K tails,
  // fewer iterations than stages.
  for (int i = 0; i < 4; ++i) {
    const int M = i == 3 ? 100 + 2 * r.range(0, 40) + 1 : 16 * r.range(1, 24), N = 16 * r.range(1, 20);
    const int K = i == 0 ? 64 : i == 1 ? 16 * r.range(1, 8) : 16 * r.range(1, 24) + 8;
    half_gemm(rep, r, "A^T B from at[K][M]", M, N, K, 128, dot_at_gemm, launch_dot_at_gemm);
  }
  // Unit strides along the tiles' axis 0 through pointers (x·Wᵀ from W[N][K]; A from at[K][M]):
  // sizes that are multiples of 8 (≡ 8 mod 16 too) take the TMA variant on sm_90a (the boxes in
  // the transposed buffers' order), the aligned one on sm_80; K of one tile, K tails, fewer
  // iterations than stages; odd sizes the general kernel.
  const char* fast = gpu::fast_variant();
  for (int i = 0; i < 5; ++i) {
    const bool odd = i == 4;
    const int M = odd ? 100 + 2 * r.range(0, 40) + 1 : i == 0 ? 128 : 8 * r.range(1, 48);
    const int N = odd ? 2 * r.range(1, 150) + 1 : 8 * r.range(1, 40);
    const int K = odd ? 2 * r.range(1, 150) + 1 : i == 0 ? 64 : i == 1 ? 8 * r.range(1, 16) : 8 * r.range(1, 48);
    half_gemm(rep, r, "x W^T from W[N][K] by pointers", M, N, K, 128, dot_wt_gemm, launch_dot_wt_gemm, odd ? "general" : fast);
    half_gemm(rep, r, "A from at[K][M] by pointers", M, N, K, 128, dot_am_gemm, launch_dot_am_gemm, odd ? "general" : fast);
    half_gemm(rep, r, "K loop counting down", M, N, K, 128, dot_down_gemm, launch_dot_down_gemm, odd ? "general" : fast);
  }
  // Loads under an `if` and addresses from a loaded index, copied ahead (block-sparse by cp.async,
  // listed blocks by TMA on sm_90a): K of one block, K tails, fewer blocks than stages, ragged M
  // and N; odd sizes the general kernel.
  for (int i = 0; i < 4; ++i) {
    const bool odd = i == 3;
    const int M = odd ? 2 * r.range(50, 200) + 1 : 8 * r.range(1, 48), N = odd ? 2 * r.range(1, 150) + 1 : 8 * r.range(1, 40);
    const int K = odd ? 2 * r.range(1, 150) + 1 : i == 0 ? 64 : i == 1 ? 8 * r.range(1, 16) : 8 * r.range(17, 80);
    sparse_gemms(rep, r, M, N, K, odd ? "general" : "_aligned", odd ? "general" : fast);
  }
  // Two K loops in a row sharing one ring (sm_90a TMA variant: warp-specialised, or chained):
  // K of less than a block (the second loop empty), one block each, a first loop shorter than
  // the stages, long second loops; ragged M (rows wrapped % M, masked at the store) and N.
  for (int i = 0; i < 5; ++i) {
    const int M = i == 0 ? 128 : 1 + r.range(1, 400), N = 8 * r.range(1, 40);
    const int K = i == 0 ? 40 : i == 1 ? 128 : i == 2 ? 8 * r.range(9, 24) : 8 * r.range(25, 200);
    half_gemm(rep, r, "two loops, warp-specialised", M, N, K, 128, dot_two_loops<1, true>, launch_dot_two_loops_1_true, fast);
    half_gemm(rep, r, "two loops, chained", M, N, K, 128, dot_two_loops<3, false>, launch_dot_two_loops_3_false, fast);
  }
  {
    const int n = 200 + r.range(0, 100);
    auto q = sample::random_vector<half>(r, 64 * 64), k = sample::random_vector<half>(r, std::size_t(n) * 64);
    std::vector<float> out(64, 0.0f), twin = out;
    host::launch(1, dot_scores, q.data(), k.data(), twin.data(), n);
    gpu::buffer<half> dq(q), dk(k);
    gpu::buffer<float> dout(out);
    GPU_CHECK(launch_dot_scores(dim3(1), nullptr, dq.as<const __half>(), dk.as<const __half>(), dout.p, n));
    gpu::sync();
    rep.compare_outputs("pipelined q.k^T row maxima, n=" + std::to_string(n), dout.get(), twin, 1e-5);
  }
  for (int K : {96, 256}) {
    auto a = small_ints<int8_t>(r, 32 * std::size_t(K)), bt = small_ints<int8_t>(r, 32 * std::size_t(K));
    std::vector<int> c(32 * 32, 0), twin = c;
    host::launch(1, dot_ahead<int8_t>, a.data(), bt.data(), twin.data(), K);
    gpu::buffer<int8_t> da(a), dbt(bt);
    gpu::buffer<int> dc(c);
    GPU_CHECK(launch_dot_ahead_int8(dim3(1), nullptr, da.p, dbt.p, dc.p, K));
    gpu::sync();
    rep.expect(("pipelined int8 K=" + std::to_string(K) + " exact").c_str(), dc.get() == twin);
  }
  for (int K : {96, 256}) {
    auto a = sample::random_vector<float>(r, 32 * std::size_t(K)), bt = sample::random_vector<float>(r, 32 * std::size_t(K));
    std::vector<float> c(32 * 32, 0.0f), twin = c;
    host::launch(1, dot_ahead<float>, a.data(), bt.data(), twin.data(), K);
    gpu::buffer<float> da(a), dbt(bt), dc(c);
    GPU_CHECK(launch_dot_ahead_float(dim3(1), nullptr, da.p, dbt.p, dc.p, K));
    gpu::sync();
    rep.compare_outputs("pipelined IEEE fp32 K=" + std::to_string(K), dc.get(), twin, 0.0);
  }
  // Attention with K read transposed through pointers (TMA in the transposed buffer's order on
  // sm_90a; at D = 128 warp-specialised, the dots overlapped): one key block, ragged ones, several.
  for (const int seq : {64, 200, 256, 1000}) {
    auto attention = [&](auto d, auto kernel, auto launch) {
      constexpr int D = decltype(d)::value;
      auto q = sample::random_vector<half>(r, std::size_t(seq) * D), k = sample::random_vector<half>(r, std::size_t(seq) * D);
      auto v = sample::random_vector<half>(r, std::size_t(seq) * D);
      std::vector<float> out(std::size_t(seq) * D, sample::poison<float>()), twin = out;
      const float scale = 1.4426950408889634f / std::sqrt(float(D));
      host::launch(cdiv(seq, 128), kernel, q.data(), k.data(), v.data(), twin.data(), seq, scale);
      gpu::buffer<half> dq(q), dk(k), dv(v);
      gpu::buffer<float> dout(out);
      const std::string took = gpu::launched_variant([&] {
        GPU_CHECK(launch(dim3(cdiv(seq, 128)), nullptr, dq.as<const __half>(), dk.as<const __half>(), dv.as<const __half>(), dout.p, seq,
                         scale));
        gpu::sync();
      });
      const std::string what = "attention, K^T through pointers, D=" + std::to_string(D) + " seq=" + std::to_string(seq);
      rep.compare_outputs(what, dout.get(), twin, 2e-3);
      gpu::expect_variant(rep, what, took, fast);
    };
    attention(std::integral_constant<int, 64>{}, dot_attention_kt<64>, launch_dot_attention_kt_64);
    attention(std::integral_constant<int, 128>{}, dot_attention_kt<128>, launch_dot_attention_kt_128);
  }
  return rep.finish();
}
