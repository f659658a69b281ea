// GEMM variants a user porting Triton/CUDA code writes (user-kernel probe set, not part of the tests).
#include <tilecc/tile.hpp>
using namespace tilecc;

// 1. nn.Linear forward: y = act(x · wᵀ + bias), w given as [N][K] row-major, loaded as a
//    [BN][BK] tile and transposed in the dot. GELU (tanh form) or ReLU epilogue, T output.
template <class T, int BM, int BN, int BK, bool GELU>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void linear_fwd(const T* x, const T* w, const T* bias, T* y, int M, int N, int K, int64_t ldx, int64_t ldw,
                int64_t ldy) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto a = load(x + cast<int64_t>(col(rm)) * ldx + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto b = load(w + cast<int64_t>(col(rn)) * ldw + row(k + rk), (col(rn) < N) & (row(k + rk) < K), 0.0f);
    acc = dot(a, trans(b), acc);
  }
  acc += row(cast<float>(load(bias + rn, rn < N, 0.0f)));
  if constexpr (GELU)
    acc = 0.5f * acc * (1.0f + tanh(0.7978845608028654f * (acc + 0.044715f * acc * acc * acc)));
  else
    acc = maximum(acc, 0.0f);
  store(y + cast<int64_t>(col(rm)) * ldy + row(rn), cast<T>(acc), (col(rm) < M) & (row(rn) < N));
}

template void linear_fwd<half, 128, 128, 64, true>(const half*, const half*, const half*, half*, int, int, int,
                                                   int64_t, int64_t, int64_t);
template void linear_fwd<bfloat16, 64, 128, 32, false>(const bfloat16*, const bfloat16*, const bfloat16*, bfloat16*,
                                                       int, int, int, int64_t, int64_t, int64_t);

// 2. Batched GEMM, batch in program_id(2): c[z] = a[z] · b[z], fp32 output, batch strides in
//    elements, pointer parameters moved by the batch.
template <class T, int BM, int BN, int BK, int WARPS>
TILECC_KERNEL(num_warps = WARPS, num_stages = 4)
void bmm(const T* a, const T* b, float* c, int M, int N, int K, int64_t batch_a, int64_t batch_b, int64_t batch_c) {
  const int64_t z = program_id(2);
  a += z * batch_a;
  b += z * batch_b;
  c += z * batch_c;
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(a + col(rm) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y = load(b + col(k + rk) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

template void bmm<half, 64, 64, 32, 4>(const half*, const half*, float*, int, int, int, int64_t, int64_t, int64_t);
template void bmm<bfloat16, 128, 64, 64, 4>(const bfloat16*, const bfloat16*, float*, int, int, int, int64_t, int64_t,
                                            int64_t);

// 3. TF32 GEMM with A given transposed (at[K][M]), GEMM-style alpha/beta epilogue that reads C:
//    c = alpha · atᵀ · b + beta · c. K may be 0 (then c = beta · c).
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void sgemm_tn_tf32(const float* at, const float* b, float* c, int M, int N, int K, float alpha, float beta) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(at + cast<int64_t>(k + col(rk)) * M + row(rm), (k + col(rk) < K) & (row(rm) < M), 0.0f);  // [BK][BM]
    auto y = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);   // [BK][BN]
    acc = dot<precision::tf32>(trans(x), y, acc);
  }
  auto mask = (col(rm) < M) & (row(rn) < N);
  auto cp = c + cast<int64_t>(col(rm)) * N + row(rn);
  auto old = load(cp, mask, 0.0f);
  store(cp, alpha * acc + beta * old, mask);
}

template void sgemm_tn_tf32<64, 64, 32>(const float*, const float*, float*, int, int, int, float, float);

// 4. int8 GEMM with per-row / per-column dequantisation scales (W8A8): a[M][K], b either
//    [N][K] (BT, K-major like a weight) or [K][N]; exact int32 result and a float output.
template <int BM, int BN, int BK, bool BT>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_w8a8(const int8_t* a, const int8_t* b, const float* scale_a, const float* scale_b, int* c32, float* out,
               int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<int, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(a + col(rm) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0);
    if constexpr (BT) {
      auto y = load(b + col(rn) * K + row(k + rk), (col(rn) < N) & (row(k + rk) < K), 0);
      acc = dot(x, trans(y), acc);
    } else {
      auto y = load(b + col(k + rk) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0);
      acc = dot(x, y, acc);
    }
  }
  auto mask = (col(rm) < M) & (row(rn) < N);
  store(c32 + col(rm) * N + row(rn), acc, mask);
  auto sa = load(scale_a + rm, rm < M, 0.0f);
  auto sb = load(scale_b + rn, rn < N, 0.0f);
  store(out + col(rm) * N + row(rn), cast<float>(acc) * col(sa) * row(sb), mask);
}

template void gemm_w8a8<64, 64, 64, true>(const int8_t*, const int8_t*, const float*, const float*, int*, float*, int,
                                          int, int);
template void gemm_w8a8<128, 64, 32, false>(const int8_t*, const int8_t*, const float*, const float*, int*, float*,
                                            int, int, int);

// 5. A K loop unrolled by hand: two BK blocks per iteration (step 2·BK), the second masked;
//    the trip count is a run-time parameter that can be 0 (output = bias row only).
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void gemm_unroll2(const half* a, const half* b, const float* bias, half* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += 2 * BK) {
    auto x0 = load(a + col(rm) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y0 = load(b + col(k + rk) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    auto x1 = load(a + col(rm) * K + row(k + BK + rk), (col(rm) < M) & (row(k + BK + rk) < K), 0.0f);
    auto y1 = load(b + col(k + BK + rk) * N + row(rn), (col(k + BK + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x0, y0, acc);
    acc = dot(x1, y1, acc);
  }
  acc += row(load(bias + rn, rn < N, 0.0f));
  store(c + col(rm) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}

template void gemm_unroll2<64, 128, 32>(const half*, const half*, const float*, half*, int, int, int);

// 6. C = Aᵀ · Bᵀ with both operands given transposed (at[K][M], bt[N][K]), both transposed by
//    trans() after plain row-major loads; fp32 output.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_tt(const half* at, const half* bt, float* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(at + cast<int64_t>(k + col(rk)) * M + row(rm), (k + col(rk) < K) & (row(rm) < M), 0.0f);  // [BK][BM]
    auto y = load(bt + cast<int64_t>(col(rn)) * K + row(k + rk), (col(rn) < N) & (row(k + rk) < K), 0.0f);   // [BN][BK]
    acc = dot(trans(x), trans(y), acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

template void gemm_tt<64, 128, 64>(const half*, const half*, float*, int, int, int);
