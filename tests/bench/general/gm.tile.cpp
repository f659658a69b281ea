#include <tilecc/tile.hpp>
using namespace tilecc;

template <int M, int N>
tile<float, M, N> leaky_relu(tile<float, M, N> x) {
  return where(x >= 0, x, 0.01f * x);
}

// Tutorial 03.
template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K, int GROUP_SIZE_M, int WARPS, int STAGES,
          bool ACTIVATION>
TILECC_KERNEL(num_warps = WARPS, num_stages = STAGES)
void tut_matmul(const T* a_ptr, const T* b_ptr, T* c_ptr, int M, int N, int K, int stride_am, int stride_ak,
                int stride_bk, int stride_bn, int stride_cm, int stride_cn) {
  const int pid = program_id(0);
  const int num_pid_m = cdiv(M, BLOCK_SIZE_M);
  const int num_pid_n = cdiv(N, BLOCK_SIZE_N);
  const int num_pid_in_group = GROUP_SIZE_M * num_pid_n;
  const int group_id = pid / num_pid_in_group;
  const int first_pid_m = group_id * GROUP_SIZE_M;
  const int group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M);
  const int pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
  const int pid_n = (pid % num_pid_in_group) / group_size_m;

  auto offs_am = (pid_m * BLOCK_SIZE_M + arange<BLOCK_SIZE_M>()) % M;
  auto offs_bn = (pid_n * BLOCK_SIZE_N + arange<BLOCK_SIZE_N>()) % N;
  auto offs_k = arange<BLOCK_SIZE_K>();
  auto a_ptrs = a_ptr + (col(offs_am) * stride_am + row(offs_k) * stride_ak);
  auto b_ptrs = b_ptr + (col(offs_k) * stride_bk + row(offs_bn) * stride_bn);

  auto accumulator = zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  for (int k = 0; k < cdiv(K, BLOCK_SIZE_K); ++k) {
    auto a = load(a_ptrs, row(offs_k) < K - k * BLOCK_SIZE_K, 0.0f);
    auto b = load(b_ptrs, col(offs_k) < K - k * BLOCK_SIZE_K, 0.0f);
    accumulator = dot(a, b, accumulator);
    a_ptrs += BLOCK_SIZE_K * stride_ak;
    b_ptrs += BLOCK_SIZE_K * stride_bk;
  }
  if constexpr (ACTIVATION) accumulator = leaky_relu(accumulator);
  auto c = cast<T>(accumulator);

  auto offs_cm = pid_m * BLOCK_SIZE_M + arange<BLOCK_SIZE_M>();
  auto offs_cn = pid_n * BLOCK_SIZE_N + arange<BLOCK_SIZE_N>();
  auto c_ptrs = c_ptr + stride_cm * col(offs_cm) + stride_cn * row(offs_cn);
  auto c_mask = (col(offs_cm) < M) & (row(offs_cn) < N);
  store(c_ptrs, c, c_mask);
}

template void tut_matmul<half, 128, 256, 64, 8, 8, 3, false>(const half*, const half*, half*, int, int, int, int, int, int, int, int, int);
template void tut_matmul<half, 128, 128, 64, 8, 8, 3, false>(const half*, const half*, half*, int, int, int, int, int, int, int, int, int);
template void tut_matmul<half, 64, 256, 32, 8, 4, 4, false>(const half*, const half*, half*, int, int, int, int, int, int, int, int, int);
