// Second audit: Triton tutorial 09's persistent matmul: a grid of at most NUM_SMS programs, each
// walking the output tiles start_pid, start_pid + NUM_SMS, ... (grouped order) with the K loop
// nested inside; fp16 in, fp32 accumulate, fp16 out.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BM, int BN, int BK, int GROUP_M>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void a2_matmul_persistent(const half* a_ptr, const half* b_ptr, half* c_ptr, int M, int N, int K, int stride_am,
                          int stride_bk, int stride_cm) {
  const int start_pid = program_id(0);
  const int num_pid_m = cdiv(M, BM), num_pid_n = cdiv(N, BN);
  const int num_tiles = num_pid_m * num_pid_n;
  const int num_pid_in_group = GROUP_M * num_pid_n;
  const int NUM_SMS = num_programs(0);
  for (int tile_id = start_pid; tile_id < num_tiles; tile_id += NUM_SMS) {
    const int group_id = tile_id / num_pid_in_group;
    const int first_pid_m = group_id * GROUP_M;
    const int group_size_m = min(num_pid_m - first_pid_m, GROUP_M);
    const int pid_m = first_pid_m + (tile_id % group_size_m);
    const int pid_n = (tile_id % num_pid_in_group) / group_size_m;
    auto offs_am = pid_m * BM + arange<BM>();
    auto offs_bn = pid_n * BN + arange<BN>();
    auto accumulator = zeros<float, BM, BN>();
    for (int ki = 0; ki < cdiv(K, BK); ++ki) {
      auto offs_k = ki * BK + arange<BK>();
      auto a = load(a_ptr + col(offs_am) * stride_am + row(offs_k), col(offs_am < M) & row(offs_k < K), 0.0f);
      auto b = load(b_ptr + col(offs_k) * stride_bk + row(offs_bn), col(offs_k < K) & row(offs_bn < N), 0.0f);
      accumulator = dot(a, b, accumulator);
    }
    store(c_ptr + col(offs_am) * stride_cm + row(offs_bn), cast<half>(accumulator), col(offs_am < M) & row(offs_bn < N));
  }
}
template void a2_matmul_persistent<128, 128, 64, 8>(const half*, const half*, half*, int, int, int, int, int, int);
