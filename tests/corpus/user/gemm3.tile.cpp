// GEMM-family kernels (third user-style set, tests/corpus/user): fused MLP halves, low-bit weight dequantisation, epilogues,
// split-K GEMV with atomics, loops counting down, fp8-like emulation.
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// 1. SwiGLU gate/up projection fused: out = silu(x · wg) * (x · wu), two B operands and two
//    accumulators in one K loop, bf16 in and out. wg, wu given [K][N].
template <int BM, int BN, int BK, int WARPS>
TILECC_KERNEL(num_warps = WARPS, num_stages = 3)
void swiglu_gemm(const bfloat16* x, const bfloat16* wg, const bfloat16* wu, bfloat16* out, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto g = zeros<float, BM, BN>();
  auto u = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto a = load(x + cast<int64_t>(col(rm)) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto bg = load(wg + cast<int64_t>(col(k + rk)) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    auto bu = load(wu + cast<int64_t>(col(k + rk)) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    g = dot(a, bg, g);
    u = dot(a, bu, u);
  }
  auto h = g * sigmoid(g) * u;
  store(out + cast<int64_t>(col(rm)) * N + row(rn), cast<bfloat16>(h), col(rm < M) & row(rn < N));
}
template void swiglu_gemm<128, 64, 32, 8>(const bfloat16*, const bfloat16*, const bfloat16*, bfloat16*, int, int, int);
template void swiglu_gemm<64, 128, 64, 4>(const bfloat16*, const bfloat16*, const bfloat16*, bfloat16*, int, int, int);

// 2. W4A16: fp16 activations times int4 weights packed two per byte along K (low nibble = even k),
//    qw [K/2][N] uint8, one fp16 scale per GROUP rows of K and column: w = (nibble - 8) * scale.
template <int BM, int BN, int BK, int GROUP, int WARPS>
TILECC_KERNEL(num_warps = WARPS, num_stages = 3)
void w4a16_gemm(const half* a, const uint8_t* qw, const half* scales, half* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto kk = k + rk;
    auto at = load(a + cast<int64_t>(col(rm)) * K + row(kk), col(rm < M) & row(kk < K), 0.0f);
    auto packed = load(qw + cast<int64_t>(col(kk / 2)) * N + row(rn), col(kk < K) & row(rn < N), uint8_t{0});
    auto nib = (cast<int>(packed) >> col((kk & 1) * 4)) & 15;
    auto s = load(scales + cast<int64_t>(col(kk / GROUP)) * N + row(rn), col(kk < K) & row(rn < N), 0.0f);
    auto w = cast<half>(cast<float>(nib - 8) * cast<float>(s));
    acc = dot(at, w, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), col(rm < M) & row(rn < N));
}
template void w4a16_gemm<64, 64, 64, 64, 4>(const half*, const uint8_t*, const half*, half*, int, int, int);
template void w4a16_gemm<128, 128, 32, 128, 8>(const half*, const uint8_t*, const half*, half*, int, int, int);

// 3. W8A16 in nn.Linear form: int8 weights [N][K] with a per-output-channel scale, dequantised to
//    bf16 in registers and used transposed; bias added; bf16 out.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void w8a16_linear(const bfloat16* x, const int8_t* w, const float* wscale, const bfloat16* bias, bfloat16* y, int M, int N,
                  int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto sc = load(wscale + rn, rn < N, 0.0f);
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto xt = load(x + cast<int64_t>(col(rm)) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto q = load(w + cast<int64_t>(col(rn)) * K + row(k + rk), col(rn < N) & row(k + rk < K), int8_t{0});   // [BN, BK]
    auto wt = cast<bfloat16>(cast<float>(q) * col(sc));
    acc = dot(xt, trans(wt), acc);
  }
  auto b = cast<float>(load(bias + rn, rn < N, 0.0f));
  store(y + cast<int64_t>(col(rm)) * N + row(rn), cast<bfloat16>(acc + row(b)), col(rm < M) & row(rn < N));
}
template void w8a16_linear<64, 64, 32>(const bfloat16*, const int8_t*, const float*, const bfloat16*, bfloat16*, int, int, int);

// 4. GEMM with a long epilogue: out = silu(a · b + bias[n]) * rowscale[m] + residual[m, n], half;
//    warps and stages from the template (num_warps 2/4/8/16, num_stages 1..5).
template <int BM, int BN, int BK, int WARPS, int STAGES>
TILECC_KERNEL(num_warps = WARPS, num_stages = STAGES)
void gemm_epilogue(const half* a, const half* b, const half* bias, const float* rowscale, const half* res, half* out,
                   int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto y = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  auto mask = col(rm < M) & row(rn < N);
  auto z = acc + row(cast<float>(load(bias + rn, rn < N, 0.0f)));
  z = z * sigmoid(z) * col(load(rowscale + rm, rm < M, 0.0f));
  z = z + cast<float>(load(res + col(rm) * N + row(rn), mask, 0.0f));
  store(out + col(rm) * N + row(rn), cast<half>(z), mask);
}
template void gemm_epilogue<128, 128, 32, 8, 4>(const half*, const half*, const half*, const float*, const half*, half*, int, int, int);
template void gemm_epilogue<256, 128, 32, 16, 2>(const half*, const half*, const half*, const float*, const half*, half*, int, int, int);
template void gemm_epilogue<32, 64, 64, 2, 5>(const half*, const half*, const half*, const float*, const half*, half*, int, int, int);
template void gemm_epilogue<64, 64, 64, 4, 1>(const half*, const half*, const half*, const float*, const half*, half*, int, int, int);

// 5. GEMV y = A x with K split across programs (program_id(1) takes a chunk of kchunk columns),
//    the partial sums added into y with float atomics. A half [M][K] row-major, no dot.
template <int BM, int BK>
TILECC_KERNEL(num_warps = 4)
void gemv_splitk(const half* A, const half* x, float* y, int M, int K, int kchunk) {
  auto rm = program_id(0) * BM + arange<BM>();
  const int k0 = program_id(1) * kchunk;
  const int k1 = tilecc::min(K, k0 + kchunk);
  auto acc = zeros<float, BM, BK>();
  for (int k = k0; k < k1; k += BK) {
    auto rk = k + arange<BK>();
    auto at = load(A + cast<int64_t>(col(rm)) * K + row(rk), col(rm < M) & row(rk < k1), 0.0f);
    auto xt = load(x + rk, rk < k1, 0.0f);
    acc += cast<float>(at) * row(cast<float>(xt));
  }
  atomic_add(y + rm, sum<1>(acc), rm < M);
}
template void gemv_splitk<32, 256>(const half*, const half*, float*, int, int, int);
template void gemv_splitk<128, 64>(const half*, const half*, float*, int, int, int);

// 6. y = xᵀ W (W [K][N]): each program a column block and a K chunk; the vector broadcast down
//    the columns, a reduction along axis 0, atomics of bf16 pairs.
template <int BN, int BK>
TILECC_KERNEL(num_warps = 2)
void vecmat_splitk(const bfloat16* x, const bfloat16* W, float* y, int K, int N, int kchunk) {
  auto rn = program_id(0) * BN + arange<BN>();
  const int k0 = program_id(1) * kchunk;
  auto acc = zeros<float, BN>();
  for (int k = k0; k < tilecc::min(K, k0 + kchunk); k += BK) {
    auto rk = k + arange<BK>();
    auto w = load(W + cast<int64_t>(col(rk)) * N + row(rn), col((rk < K) & (rk < k0 + kchunk)) & row(rn < N), 0.0f);
    auto xv = load(x + rk, (rk < K) & (rk < k0 + kchunk), 0.0f);
    acc += sum<0>(cast<float>(w) * col(cast<float>(xv)));
  }
  atomic_add(y + rn, acc, rn < N);
}
template void vecmat_splitk<128, 32>(const bfloat16*, const bfloat16*, float*, int, int, int);

// 7. K loops counting down: UNS = 0 a signed int64 counter `k > -1` stepping -BK; UNS = 1 an
//    unsigned block counter `kb > 0` with `--kb` (block kb - 1). fp16 in, fp32 out.
template <int BM, int BN, int BK, int UNS>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_down(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  if constexpr (UNS == 0) {
    for (int64_t k = int64_t(cdiv(K, BK) - 1) * BK; k > -1; k -= BK) {
      auto x = load(a + col(rm) * int64_t{K} + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
      auto y = load(b + col(k + rk) * int64_t{N} + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
      acc = dot(x, y, acc);
    }
  } else {
    for (unsigned kb = unsigned(cdiv(K, BK)); kb > 0u; --kb) {
      const int k = int(kb - 1u) * BK;
      auto x = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
      auto y = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
      acc = dot(x, y, acc);
    }
  }
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
template void gemm_down<64, 64, 32, 0>(const half*, const half*, float*, int, int, int);
template void gemm_down<64, 64, 32, 1>(const half*, const half*, float*, int, int, int);

// 8. fp8 (e4m3-like) emulation: A in fp32 quantised on the fly to 3 mantissa bits, clamped to
//    +-448 after scaling by 1/scale_a, in fp16 for the dot; B fp16; out = acc * scale_a.
template <int BM, int BN>
tile<float, BM, BN> fake_e4m3(tile<float, BM, BN> x) {
  auto q = minimum(maximum(x, -448.0f), 448.0f);
  auto mag = abs(q);
  auto e = floor(log2(maximum(mag, 1.0f / 512.0f)));
  e = maximum(e, -6.0f);                     // subnormal steps below 2^-6
  auto step = exp2(e - 3.0f);
  return where(mag == 0.0f, 0.0f, round(q / step) * step);
}
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void fp8emu_gemm(const float* a, const half* b, float* c, int M, int N, int K, float scale_a) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  const float inv = 1.0f / scale_a;
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto xq = cast<half>(fake_e4m3(x * inv));
    auto y = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(xq, y, acc);
  }
  store(c + col(rm) * N + row(rn), acc * scale_a, col(rm < M) & row(rn < N));
}
template void fp8emu_gemm<64, 64, 32>(const float*, const half*, float*, int, int, int, float);
