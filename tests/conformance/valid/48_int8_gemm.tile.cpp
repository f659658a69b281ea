// Second audit: weight-only int8 GEMM (W8A16): fp16 activations [M, K] times int8 weights
// [K, N] with a per-output-channel fp32 scale; the int8 tile is converted to fp16 before dot
// (dequantise in the loop, scale in the epilogue), fp16 output with an optional fp16 bias.
// And the W8A8 form: int8 x int8 dot accumulating in int32, per-row and per-column scales.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BM, int BN, int BK, bool HAS_BIAS>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void a2_w8a16(const half* a, const int8_t* w, const float* scale, const half* bias, half* c, int M, int N, int K,
              int64_t lda, int64_t ldw, int64_t ldc) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto a_ptrs = a + col(rm) * lda + row(rk);
  auto w_ptrs = w + col(rk) * ldw + row(rn);
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto at = load(a_ptrs, col(rm < M) & row(rk < K - k), 0.0f);
    auto wt = load(w_ptrs, col(rk < K - k) & row(rn < N), 0);
    acc = dot(at, cast<half>(wt), acc);
    a_ptrs += BK;
    w_ptrs += BK * ldw;
  }
  auto s = load(scale + rn, rn < N, 0.0f);
  acc = acc * row(s);
  if constexpr (HAS_BIAS) acc += row(cast<float>(load(bias + rn, rn < N, 0.0f)));
  store(c + col(rm) * ldc + row(rn), cast<half>(acc), col(rm < M) & row(rn < N));
}
template void a2_w8a16<64, 64, 64, true>(const half*, const int8_t*, const float*, const half*, half*, int, int, int,
                                         int64_t, int64_t, int64_t);
template void a2_w8a16<16, 128, 32, false>(const half*, const int8_t*, const float*, const half*, half*, int, int, int,
                                           int64_t, int64_t, int64_t);

template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4)
void a2_w8a8(const int8_t* a, const int8_t* b, const float* a_scale, const float* b_scale, float* c, int32_t* c_int,
             int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto acc = zeros<int, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto rk = k + arange<BK>();
    auto at = load(a + col(rm) * K + row(rk), col(rm < M) & row(rk < K));
    auto bt = load(b + col(rk) * N + row(rn), col(rk < K) & row(rn < N));
    acc = dot(at, bt, acc);
  }
  auto mask = col(rm < M) & row(rn < N);
  store(c_int + col(rm) * N + row(rn), acc, mask);
  auto out = cast<float>(acc) * col(load(a_scale + rm, rm < M, 0.0f)) * row(load(b_scale + rn, rn < N, 0.0f));
  store(c + col(rm) * N + row(rn), out, mask);
}
template void a2_w8a8<64, 64, 64>(const int8_t*, const int8_t*, const float*, const float*, float*, int32_t*, int, int,
                                  int);
