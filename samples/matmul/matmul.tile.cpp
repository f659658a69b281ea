// C = act(A·B + bias): A is M x K, B is K x N, row-major with leading dimensions; fp32
// accumulation. Programs walk the output in groups of GROUP_M block-rows so that neighbouring
// programs share B tiles in L2.
#include <tilecc/tile.hpp>
using namespace tilecc;

enum class activation { none, relu, gelu };

// A kernel family: instantiations that differ only in BM, BN, BK and GROUP_M share one launcher,
// launch_matmul_<T>_<HAS_BIAS>_<ACT>(stream, ...), which computes the grid below and picks the
// configuration for the device and the shape (M, N, K) from matmul.tune (matmul_tune.cpp
// writes it on the GPU; without it, the first instantiation).
template <class T, int BM, int BN, int BK, int GROUP_M, bool HAS_BIAS, activation ACT>
TILECC_KERNEL(num_warps = 8, num_stages = 3, tune = (BM, BN, BK, GROUP_M), tune_key = (M, N, K),
              grid = cdiv(M, BM) * cdiv(N, BN))
void matmul(const T* a, const T* b, T* c, const T* bias, int M, int N, int K, int64_t lda, int64_t ldb, int64_t ldc) {
  const int pid = program_id(0);
  const int grid_m = cdiv(M, BM), grid_n = cdiv(N, BN);
  const int group_width = GROUP_M * grid_n;
  const int first_m = (pid / group_width) * GROUP_M;
  const int group_rows = min(grid_m - first_m, GROUP_M);
  const int pid_m = first_m + (pid % group_width) % group_rows;
  const int pid_n = (pid % group_width) / group_rows;

  // Rows of A past M wrap around: they load valid memory and their results are never stored.
  // Columns of B past N are masked instead, so that B's rows stay contiguous (16-byte loads).
  auto rm = (pid_m * BM + arange<BM>()) % M;
  auto rn = pid_n * BN + arange<BN>();
  auto rk = arange<BK>();
  auto a_ptrs = a + cast<int64_t>(col(rm)) * lda + row(rk);
  auto b_ptrs = b + cast<int64_t>(col(rk)) * ldb + row(rn);

  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    auto a_tile = load(a_ptrs, row(rk) < K - k, 0.0f);
    auto b_tile = load(b_ptrs, (col(rk) < K - k) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
    a_ptrs += BK;
    b_ptrs += BK * ldb;
  }

  auto cm = pid_m * BM + arange<BM>();
  auto cn = pid_n * BN + arange<BN>();
  if constexpr (HAS_BIAS) acc += row(cast<float>(load(bias + cn, cn < N)));
  if constexpr (ACT == activation::relu) acc = maximum(acc, 0.0f);
  if constexpr (ACT == activation::gelu) acc = 0.5f * acc * (1.0f + erf(acc * 0.7071067811865476f));
  store(c + cast<int64_t>(col(cm)) * ldc + row(cn), cast<T>(acc), (col(cm) < M) & (row(cn) < N));
}

template void matmul<half, 128, 128, 64, 8, false, activation::none>(const half*, const half*, half*, const half*, int,
                                                                      int, int, int64_t, int64_t, int64_t);
template void matmul<half, 128, 128, 64, 8, true, activation::gelu>(const half*, const half*, half*, const half*, int,
                                                                     int, int, int64_t, int64_t, int64_t);
template void matmul<bfloat16, 128, 128, 64, 8, false, activation::none>(const bfloat16*, const bfloat16*, bfloat16*,
                                                                          const bfloat16*, int, int, int, int64_t,
                                                                          int64_t, int64_t);
template void matmul<bfloat16, 128, 128, 64, 8, true, activation::relu>(const bfloat16*, const bfloat16*, bfloat16*,
                                                                         const bfloat16*, int, int, int, int64_t,
                                                                         int64_t, int64_t);
// A wider tile for Hopper: each warp group's wgmma is m64n256, which halves the shared-memory
// reads per multiply-add (the 128x128 tile is bound by shared-memory bandwidth there).
template void matmul<half, 128, 256, 64, 8, false, activation::none>(const half*, const half*, half*, const half*, int,
                                                                      int, int, int64_t, int64_t, int64_t);
template void matmul<bfloat16, 128, 256, 64, 8, false, activation::none>(const bfloat16*, const bfloat16*, bfloat16*,
                                                                          const bfloat16*, int, int, int, int64_t,
                                                                          int64_t, int64_t);
// More configurations of the fp16 family for the tuner (matmul_tune.cpp): smaller tiles fill the
// GPU at shapes with few 128 x 128 tiles (skinny or K-heavy products).
template void matmul<half, 64, 128, 64, 8, false, activation::none>(const half*, const half*, half*, const half*, int,
                                                                     int, int, int64_t, int64_t, int64_t);
template void matmul<half, 128, 64, 64, 8, false, activation::none>(const half*, const half*, half*, const half*, int,
                                                                     int, int, int64_t, int64_t, int64_t);
template void matmul<half, 64, 64, 64, 8, false, activation::none>(const half*, const half*, half*, const half*, int,
                                                                    int, int, int64_t, int64_t, int64_t);
template void matmul<half, 128, 256, 64, 4, false, activation::none>(const half*, const half*, half*, const half*, int,
                                                                      int, int, int64_t, int64_t, int64_t);
