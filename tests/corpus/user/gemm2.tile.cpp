// GEMM variants (uk2 probe set).
#include <tilecc/tile.hpp>
using namespace tilecc;

// 16. fp16 GEMM with Triton's grouped ("swizzled") program order on a 1-D grid, fp16 output.
template <int BM, int BN, int BK, int GROUP_M>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_grouped(const half* a, const half* b, half* c, int M, int N, int K) {
  const int pid = program_id(0);
  const int num_pid_m = cdiv(M, BM), num_pid_n = cdiv(N, BN);
  const int num_pid_in_group = GROUP_M * num_pid_n;
  const int group_id = pid / num_pid_in_group;
  const int first_pid_m = group_id * GROUP_M;
  const int group_size_m = tilecc::min(num_pid_m - first_pid_m, GROUP_M);
  const int pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  const int pid_n = (pid % num_pid_in_group) / group_size_m;
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto y = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * N + row(rn), cast<half>(acc), col(rm < M) & row(rn < N));
}
template void gemm_grouped<128, 128, 64, 8>(const half*, const half*, half*, int, int, int);
template void gemm_grouped<64, 128, 32, 4>(const half*, const half*, half*, int, int, int);

// 17. int8 x int8 -> int32 with a per-row scale of A and a scalar scale of B, bf16 output.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void igemm_rowscale(const int8_t* a, const int8_t* b, const float* sa, float sb, bfloat16* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<int, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto x = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), int8_t{0});
    auto y = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), int8_t{0});
    acc = dot(x, y, acc);
  }
  auto s = load(sa + rm, rm < M, 0.0f);
  store(c + col(rm) * N + row(rn), cast<bfloat16>(cast<float>(acc) * col(s) * sb), col(rm < M) & row(rn < N));
}
template void igemm_rowscale<64, 64, 64>(const int8_t*, const int8_t*, const float*, float, bfloat16*, int, int, int);

// 18. GEMM whose main loop runs over full K tiles unmasked, then one masked tail tile (K not a
//     multiple of BK, K < BK).
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_ktail(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  const int kfull = K / BK * BK;
  for (int k = 0; k < kfull; k += BK) {
    auto x = load(a + col(rm) * K + row(k + rk), col(rm < M), 0.0f);
    auto y = load(b + col(k + rk) * N + row(rn), row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  if (kfull < K) {
    auto x = load(a + col(rm) * K + row(kfull + rk), col(rm < M) & row(kfull + rk < K), 0.0f);
    auto y = load(b + col(kfull + rk) * N + row(rn), col(kfull + rk < K) & row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
template void gemm_ktail<64, 64, 32>(const half*, const half*, float*, int, int, int);

// 19. Stride-batched GEMM with every stride an int64 parameter (B may be transposed by its strides).
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void bmm_strides(const bfloat16* a, const bfloat16* b, float* c, int M, int N, int K, int64_t sab, int64_t sam, int64_t sak,
                 int64_t sbb, int64_t sbk, int64_t sbn, int64_t scb, int64_t scm, int64_t scn) {
  const int64_t z = program_id(2);
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto pa = a + z * sab + col(rm) * sam + row(rk) * sak;
  auto pb = b + z * sbb + col(rk) * sbk + row(rn) * sbn;
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = dot(load(pa, col(rm < M) & row(k + rk < K), 0.0f), load(pb, col(k + rk < K) & row(rn < N), 0.0f), acc);
    pa += BK * sak;
    pb += BK * sbk;
  }
  store(c + z * scb + col(rm) * scm + row(rn) * scn, acc, col(rm < M) & row(rn < N));
}
template void bmm_strides<64, 64, 32>(const bfloat16*, const bfloat16*, float*, int, int, int, int64_t, int64_t, int64_t,
                                      int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);

// 20. GEMV y = A x through dot with N padded to one 16-wide tile (column 0 real).
template <int BM, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemv_dot(const half* a, const half* x, float* y, int M, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rk = arange<BK>();
  auto j = arange<16>();
  auto acc = zeros<float, BM, 16>();
  for (int k = 0; k < K; k += BK) {
    auto at = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto xt = load(x + col(k + rk) + row(j) * 0, col(k + rk < K) & row(j == 0), 0.0f);   // [BK, 16]
    acc = dot(at, xt, acc);
  }
  store(y + rm, sum<1>(acc), rm < M);
}
template void gemv_dot<128, 64>(const half*, const half*, float*, int, int);

// 21. GEMV without dot: sum over a broadcast product, fp32.
template <int BM, int BK>
TILECC_KERNEL(num_warps = 4)
void gemv_sum(const float* a, const float* x, float* y, int M, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto acc = zeros<float, BM>();
  for (int k = 0; k < K; k += BK) {
    auto rk = k + arange<BK>();
    auto at = load(a + cast<int64_t>(col(rm)) * K + row(rk), col(rm < M) & row(rk < K), 0.0f);
    acc += sum<1>(at * row(load(x + rk, rk < K, 0.0f)));
  }
  store(y + rm, acc, rm < M);
}
template void gemv_sum<16, 256>(const float*, const float*, float*, int, int);

// 22. Tiny tiles: 16x16x16 on one warp.
TILECC_KERNEL(num_warps = 1, num_stages = 2)
void gemm16(const half* a, const half* b, half* c, int M, int N, int K) {
  auto rm = program_id(0) * 16 + arange<16>();
  auto rn = program_id(1) * 16 + arange<16>();
  auto rk = arange<16>();
  auto acc = zeros<float, 16, 16>();
  for (int k = 0; k < K; k += 16)
    acc = dot(load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f),
              load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f), acc);
  store(c + col(rm) * N + row(rn), cast<half>(acc), col(rm < M) & row(rn < N));
}
