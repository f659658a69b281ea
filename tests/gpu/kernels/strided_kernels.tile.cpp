// A GEMM over views of any layout, written the way Triton's tutorial writes it: every operand
// addressed through run-time strides. Nothing in the source says an inner stride is 1, so the
// general kernel moves one element per access; the specialised variant assumes the strides
// users pass for row-major data equal 1 (the launcher checks `stride_ak == 1` and the like)
// and gets 16-byte accesses and cp.async pipelines. tests/gpu/gpu_strided.cpp runs both paths
// against the host twin; the benchmark times them.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BM, int BN, int BK, int GROUP_M>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void matmul_strided(const T* a, const T* b, T* c, int M, int N, int K, int64_t stride_am, int64_t stride_ak,
                    int64_t stride_bk, int64_t stride_bn, int64_t stride_cm, int64_t stride_cn) {
  const int pid = program_id(0);
  const int grid_m = cdiv(M, BM), grid_n = cdiv(N, BN);
  const int group_width = GROUP_M * grid_n;
  const int first_m = (pid / group_width) * GROUP_M;
  const int group_rows = min(grid_m - first_m, GROUP_M);
  const int pid_m = first_m + (pid % group_width) % group_rows;
  const int pid_n = (pid % group_width) / group_rows;

  auto rm = (pid_m * BM + arange<BM>()) % M;
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto a_ptrs = a + cast<int64_t>(col(rm)) * stride_am + cast<int64_t>(row(rk)) * stride_ak;
  auto b_ptrs = b + cast<int64_t>(col(rk)) * stride_bk + cast<int64_t>(row(rn)) * stride_bn;

  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto a_tile = load(a_ptrs, row(rk) < K - k, 0.0f);
    auto b_tile = load(b_ptrs, (col(rk) < K - k) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
    a_ptrs += BK * stride_ak;
    b_ptrs += BK * stride_bk;
  }
  auto cm = pid_m * BM + arange<BM>();
  auto cn = pid_n * BN + arange<BN>();
  store(c + cast<int64_t>(col(cm)) * stride_cm + cast<int64_t>(row(cn)) * stride_cn, cast<T>(acc),
        (col(cm) < M) & (row(cn) < N));
}

template void matmul_strided<half, 128, 128, 64, 8>(const half*, const half*, half*, int, int, int, int64_t, int64_t,
                                                    int64_t, int64_t, int64_t, int64_t);

// Triton's tutorial GEMM as written there: rows of A and columns of B wrap (`% M`, `% N`), loads
// masked along K only, the store masked on both axes. On sm_90a with unit inner strides both
// loads are TMA boxes: the wrapped rows and columns are never stored.
template <class T, int BM, int BN, int BK, int GROUP_M>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void matmul_tutorial(const T* a, const T* b, T* c, int M, int N, int K, int64_t stride_am, int64_t stride_ak,
                     int64_t stride_bk, int64_t stride_bn, int64_t stride_cm, int64_t stride_cn) {
  const int pid = program_id(0);
  const int num_pid_m = cdiv(M, BM), num_pid_n = cdiv(N, BN);
  const int num_pid_in_group = GROUP_M * num_pid_n;
  const int group_id = pid / num_pid_in_group;
  const int first_pid_m = group_id * GROUP_M;
  const int group_size_m = min(num_pid_m - first_pid_m, GROUP_M);
  const int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
  const int pid_n = (pid % num_pid_in_group) / group_size_m;

  auto offs_am = (pid_m * BM + arange<BM>()) % M;
  auto offs_bn = (pid_n * BN + arange<BN>()) % N;
  auto offs_k = arange<BK>();
  auto a_ptrs = a + (cast<int64_t>(col(offs_am)) * stride_am + cast<int64_t>(row(offs_k)) * stride_ak);
  auto b_ptrs = b + (cast<int64_t>(col(offs_k)) * stride_bk + cast<int64_t>(row(offs_bn)) * stride_bn);

  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < cdiv(K, BK); ++k) {
    auto a_tile = load(a_ptrs, row(offs_k) < K - k * BK, 0.0f);
    auto b_tile = load(b_ptrs, col(offs_k) < K - k * BK, 0.0f);
    acc = dot(a_tile, b_tile, acc);
    a_ptrs += BK * stride_ak;
    b_ptrs += BK * stride_bk;
  }
  auto offs_cm = pid_m * BM + arange<BM>();
  auto offs_cn = pid_n * BN + arange<BN>();
  store(c + stride_cm * cast<int64_t>(col(offs_cm)) + stride_cn * cast<int64_t>(row(offs_cn)), cast<T>(acc),
        (col(offs_cm) < M) & (row(offs_cn) < N));
}

template void matmul_tutorial<half, 128, 128, 64, 8>(const half*, const half*, half*, int, int, int, int64_t, int64_t,
                                                     int64_t, int64_t, int64_t, int64_t);
// BLOCK_K = 32 and 16 (rows of 64 and 32 bytes in shared memory: 64B and 32B swizzles for wgmma).
template void matmul_tutorial<half, 128, 128, 32, 8>(const half*, const half*, half*, int, int, int, int64_t, int64_t,
                                                     int64_t, int64_t, int64_t, int64_t);
template void matmul_tutorial<half, 128, 128, 16, 8>(const half*, const half*, half*, int, int, int, int64_t, int64_t,
                                                     int64_t, int64_t, int64_t, int64_t);
