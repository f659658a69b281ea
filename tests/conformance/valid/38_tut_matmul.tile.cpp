// Second audit: Triton tutorial 03, matrix multiplication with grouped program order and a
// fused epilogue (bias + leaky_relu), pointer tiles advanced by strides, K masked; then the
// block-pointer form of the same kernel (the older tutorial).
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int M, int N>
tile<float, M, N> leaky_relu(tile<float, M, N> x) {
  return where(x >= 0, x, 0.01 * x);
}

template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N, int BLOCK_SIZE_K, int GROUP_SIZE_M, bool ACTIVATION>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void a2_matmul(const T* a_ptr, const T* b_ptr, T* c_ptr, const float* bias_ptr, int M, int N, int K, int stride_am,
               int stride_ak, int stride_bk, int stride_bn, int stride_cm, int stride_cn) {
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
  auto offs_cn = pid_n * BLOCK_SIZE_N + arange<BLOCK_SIZE_N>();
  accumulator += row(load(bias_ptr + offs_cn, offs_cn < N, 0.0f));
  if constexpr (ACTIVATION) accumulator = leaky_relu(accumulator);
  auto c = cast<T>(accumulator);

  auto offs_cm = pid_m * BLOCK_SIZE_M + arange<BLOCK_SIZE_M>();
  auto c_ptrs = c_ptr + stride_cm * col(offs_cm) + stride_cn * row(offs_cn);
  auto c_mask = (col(offs_cm) < M) & (row(offs_cn) < N);
  store(c_ptrs, c, c_mask);
}

template void a2_matmul<half, 128, 128, 64, 8, true>(const half*, const half*, half*, const float*, int, int, int, int,
                                                     int, int, int, int, int);
template void a2_matmul<bfloat16, 64, 64, 32, 4, false>(const bfloat16*, const bfloat16*, bfloat16*, const float*, int,
                                                        int, int, int, int, int, int, int, int);

// The block-pointer form: boundary handling by the block pointers (zero padding on load,
// skipped lanes on store), 64-bit strides.
template <int BM, int BN, int BK, int GROUP_M>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void a2_matmul_bp(const half* a_ptr, const half* b_ptr, half* c_ptr, const float* bias_ptr, int M, int N, int K,
                  int64_t stride_am, int64_t stride_ak, int64_t stride_bk, int64_t stride_bn, int64_t stride_cm,
                  int64_t stride_cn) {
  const int pid = program_id(0);
  const int num_pid_m = cdiv(M, BM), num_pid_n = cdiv(N, BN);
  const int num_pid_in_group = GROUP_M * num_pid_n;
  const int first_pid_m = (pid / num_pid_in_group) * GROUP_M;
  const int group_size_m = min(num_pid_m - first_pid_m, GROUP_M);
  const int pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m;
  const int pid_n = (pid % num_pid_in_group) / group_size_m;
  auto a_block = make_block_ptr<BM, BK>(a_ptr, {M, K}, {stride_am, stride_ak}, {pid_m * BM, 0});
  auto b_block = make_block_ptr<BK, BN>(b_ptr, {K, N}, {stride_bk, stride_bn}, {0, pid_n * BN});
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = dot(load(a_block), load(b_block), acc);
    a_block = advance(a_block, {0, BK});
    b_block = advance(b_block, {BK, 0});
  }
  auto offs_n = pid_n * BN + arange<BN>();
  acc = leaky_relu(acc + row(load(bias_ptr + offs_n, offs_n < N, 0.0f)));
  auto c_block = make_block_ptr<BM, BN>(c_ptr, {M, N}, {stride_cm, stride_cn}, {pid_m * BM, pid_n * BN});
  store(c_block, cast<half>(acc));
}

template void a2_matmul_bp<64, 128, 32, 4>(const half*, const half*, half*, const float*, int, int, int, int64_t,
                                           int64_t, int64_t, int64_t, int64_t, int64_t);
