// Second audit: batched matmul C[b] = A[b]·B[b] with the batch in program_id(1) and the output
// tile in program_id(0), through block pointers with run-time strides (so B may be stored
// transposed), fp16 and bf16 inputs, fp32 accumulation; and the pointer-tile form with fp32
// output and a scale alpha (C = alpha · A·B), 64-bit batch offsets.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void a2_bmm(const T* a, const T* b, T* c, int M, int N, int K, int64_t stride_ab, int64_t stride_am, int64_t stride_ak,
            int64_t stride_bb, int64_t stride_bk, int64_t stride_bn, int64_t stride_cb, int64_t stride_cm,
            int64_t stride_cn) {
  const int pid = program_id(0);
  const int bid = program_id(1);
  const int grid_n = cdiv(N, BN);
  const int pid_m = pid / grid_n;
  const int pid_n = pid % grid_n;
  auto a_bp = make_block_ptr<BM, BK>(a + bid * stride_ab, {M, K}, {stride_am, stride_ak}, {pid_m * BM, 0});
  auto b_bp = make_block_ptr<BK, BN>(b + bid * stride_bb, {K, N}, {stride_bk, stride_bn}, {0, pid_n * BN});
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = dot(load(a_bp), load(b_bp), acc);
    a_bp = advance(a_bp, {0, BK});
    b_bp = advance(b_bp, {BK, 0});
  }
  auto c_bp = make_block_ptr<BM, BN>(c + bid * stride_cb, {M, N}, {stride_cm, stride_cn}, {pid_m * BM, pid_n * BN});
  store(c_bp, cast<T>(acc));
}
template void a2_bmm<half, 64, 64, 32>(const half*, const half*, half*, int, int, int, int64_t, int64_t, int64_t,
                                       int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
template void a2_bmm<bfloat16, 128, 64, 64>(const bfloat16*, const bfloat16*, bfloat16*, int, int, int, int64_t, int64_t,
                                            int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);

template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4)
void a2_bmm_ptr(const half* a, const half* b, float* c, int M, int N, int K, float alpha) {
  const int64_t batch = program_id(1);
  const int grid_m = cdiv(M, BM);
  const int pid_m = program_id(0) % grid_m, pid_n = program_id(0) / grid_m;
  auto rm = pid_m * BM + arange<BM>();
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  const half* a_batch = a + batch * M * K;
  const half* b_batch = b + batch * K * N;
  auto acc = zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto at = load(a_batch + col(rm) * K + row(k0 + rk), col(rm < M) & row(k0 + rk < K), 0.0f);
    auto bt = load(b_batch + col(k0 + rk) * N + row(rn), col(k0 + rk < K) & row(rn < N), 0.0f);
    acc = dot(at, bt, acc);
  }
  store(c + batch * M * N + col(rm) * N + row(rn), alpha * acc, col(rm < M) & row(rn < N));
}
template void a2_bmm_ptr<32, 32, 32>(const half*, const half*, float*, int, int, int, float);
