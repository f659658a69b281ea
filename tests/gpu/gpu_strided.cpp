// The strided GEMM (kernels/strided_kernels.tile.cpp) on the GPU against the host twin, over
// views of every layout: row-major operands (unit inner strides: the launcher's specialised
// variant, 16-byte cp.async), B column-major (a weight W[N][K] read as Wᵀ: the variant for a
// transposed B, `stride_bk == 1`), A column-major (its rows wrap through `% M`: the variant
// for a transposed A, `stride_am == 1`, which assumes and checks `pid_m >= 0`), both transposed
// (the general kernel), padded leading dimensions and ragged sizes.
#include "kernels/strided_kernels.tile.cpp"
#include "strided_kernels.h"

#include "gpu_check.hpp"

#include <cstdlib>
#include <string>

namespace {

struct View {
  int64_t rowStride, colStride;
};

// An R x C matrix stored row-major (ld ≥ C) or column-major (ld ≥ R).
View viewOf(bool rowMajor, int R, int C, int pad) { return rowMajor ? View{C + pad, 1} : View{1, R + pad}; }

void run(sample::report& rep, sample::rng& r, int M, int N, int K, bool aRow, bool bRow, int pad, bool tutorial = false, int bk = 64) {
  using tilecc::half;
  const View va = viewOf(aRow, M, K, pad), vb = viewOf(bRow, K, N, pad), vc = viewOf(true, M, N, pad);
  const std::size_t na = std::size_t(aRow ? M * va.rowStride : K * va.colStride);
  const std::size_t nb = std::size_t(bRow ? K * vb.rowStride : N * vb.colStride);
  auto a = sample::random_vector<half>(r, na), b = sample::random_vector<half>(r, nb);
  std::vector<half> c(std::size_t(M) * vc.rowStride, sample::poison<half>());
  auto twin = c;
  const int programs = cdiv(M, 128) * cdiv(N, 128);
  host::launch(programs, tutorial ? matmul_tutorial<half, 128, 128, 64, 8> : matmul_strided<half, 128, 128, 64, 8>, a.data(),
               b.data(), twin.data(), M, N, K, va.rowStride, va.colStride, vb.rowStride, vb.colStride, vc.rowStride, vc.colStride);
  gpu::buffer<half> da(a), db(b), dc(c);
  auto launch = !tutorial ? launch_matmul_strided_half_128_128_64_8
                : bk == 32 ? launch_matmul_tutorial_half_128_128_32_8
                : bk == 16 ? launch_matmul_tutorial_half_128_128_16_8
                           : launch_matmul_tutorial_half_128_128_64_8;
  const std::string variant = gpu::launched_variant([&] {
    GPU_CHECK(launch(dim3(programs), nullptr, da.as<const __half>(), db.as<const __half>(), dc.as<__half>(), M, N, K, va.rowStride,
                     va.colStride, vb.rowStride, vb.colStride, vc.rowStride, vc.colStride));
  });
  gpu::sync();
  const std::string what = std::string(tutorial ? "tutorial " : "") + (bk != 64 ? "BK " + std::to_string(bk) + " " : "") +
                           std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + ", A " + (aRow ? "row" : "column") +
                           "-major, B " + (bRow ? "row" : "column") + "-major, padding " + std::to_string(pad);
  rep.compare_outputs(what, dc.get(), twin, 2e-3);
  // Narrower K blocks (64- and 32-byte rows) stay on cp.async on sm_90a too (TMA measured slower).
  if (bk != 64 && aRow && (K + pad) % 8 == 0 && (N + pad) % 8 == 0) gpu::expect_variant(rep, what, variant, "_aligned");
}

}  // namespace

int main() {
  setenv("TILECC_LOG_LAUNCH", "1", 1);  // read once, at the first launch: launched_variant needs it
  gpu::require_gpu();
  sample::report rep("strided matmul (GPU vs host twin)");
  sample::rng r;
  run(rep, r, 256, 256, 128, true, true, 0);  // the specialised variant
  run(rep, r, 384, 256, 320, true, true, 16);
  run(rep, r, 256, 128, 80, true, true, 0);   // K not a multiple of BK
  run(rep, r, 256, 256, 128, false, true, 0);  // A transposed: the transposed-A variant
  run(rep, r, 128, 256, 192, true, false, 8);
  run(rep, r, 100 + r.range(1, 200), 60 + r.range(1, 200), 30 + r.range(1, 150), true, true, r.range(1, 3));
  run(rep, r, 100 + r.range(1, 200), 60 + r.range(1, 200), 30 + r.range(1, 150), false, false, 0);
  // B column-major with 16-aligned strides: the transposed-B variant (ragged M, K tails within
  // the tile, N multiples of 16); ragged N or an odd leading dimension: the general kernel.
  run(rep, r, 256, 256, 128, true, false, 0);
  run(rep, r, 384, 256, 320, true, false, 16);
  run(rep, r, 100 + r.range(1, 200), 16 * r.range(1, 20), 16 * r.range(1, 20), true, false, 0);
  run(rep, r, 100 + r.range(1, 200), 60 + r.range(1, 200), 16 * r.range(1, 20), true, false, 0);
  // Triton's tutorial GEMM (rows and columns wrap): TMA on sm_90a with unit inner strides,
  // ragged M and N, K of one tile and K shorter than the pipeline; other views: the general kernel.
  run(rep, r, 200, 144, 176, true, true, 0, true);
  run(rep, r, 333, 208, 64, true, true, 16, true);
  run(rep, r, 128, 256, 16, true, true, 0, true);
  run(rep, r, 1 + r.range(1, 300), 16 * r.range(1, 20), 16 * r.range(1, 20), true, true, 0, true);
  run(rep, r, 100 + r.range(1, 200), 60 + r.range(1, 200), 30 + r.range(1, 150), false, true, 0, true);
  run(rep, r, 256, 256, 128, true, false, 8, true);
  run(rep, r, 200, 144, 176, true, false, 0, true);  // transposed-B variant, rows wrapping
  run(rep, r, 128, 256, 16, true, false, 16, true);  // K of one tile
  // A column-major with 16-aligned strides: the transposed-A variant (16-byte loads along M,
  // rows wrapping, K tails, K of one tile, padded leading dimension); ragged M: the general kernel.
  run(rep, r, 16 * r.range(1, 24), 16 * r.range(1, 20), 30 + r.range(1, 150), false, true, 0);
  run(rep, r, 16 * r.range(1, 24), 16 * r.range(1, 20), 16 * r.range(1, 20), false, true, 16, true);
  run(rep, r, 208, 144, 16, false, true, 0, true);
  run(rep, r, 336, 272, 200, false, true, 32, true);
  run(rep, r, 100 + r.range(1, 200), 16 * r.range(1, 20), 16 * r.range(1, 20), false, true, 0, true);
  // BLOCK_K = 32 and 16: 64- and 32-byte rows in shared memory (64B and 32B swizzles for wgmma on
  // sm_90a); K tails, K of one block, ragged M and N, B column-major.
  for (int bk : {32, 16}) {
    run(rep, r, 256, 256, 128, true, true, 0, true, bk);
    run(rep, r, 200, 144, 176, true, true, 0, true, bk);
    run(rep, r, 1 + r.range(1, 300), 16 * r.range(1, 20), 16 * r.range(1, 20), true, true, 0, true, bk);
    run(rep, r, 128, 256, bk, true, true, 8, true, bk);
    run(rep, r, 200, 144, 176, true, false, 0, true, bk);
    run(rep, r, 100 + r.range(1, 200), 60 + r.range(1, 200), 30 + r.range(1, 150), true, true, 1, true, bk);
  }
  return rep.finish();
}
