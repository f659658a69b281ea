// Triton's tutorial GEMM with its leaky ReLU epilogue (`where(x >= 0, x, 0.01f * x)`) at the
// tutorial's 128x256 tile: the rows `% M` still count as a box with TMA's zero fill, because a
// select by a condition on the wrapped rows keeps them in their rows, all masked at the store
// (a held-out port lost its TMA variant to this); and the epilogue's `0.01f * x` is computed
// element by element, so it holds no second tile of registers (no spill warning: ptxas
// allocates 168 registers and spills nothing).
// ARGS: --emit=report --arch=sm_90a -o -
// DIAG-NOT: {{warning|error}}
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int M, int N>
tile<float, M, N> leaky_relu(tile<float, M, N> x) {
  return where(x >= 0, x, 0.01f * x);
}

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void tutorial(const half* a, const half* b, half* c, int M, int N, int K, int sam, int sak, int sbk, int sbn, int scm,
              int scn) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto offs_am = (pid_m * 128 + arange<128>()) % M;
  auto offs_bn = (pid_n * 256 + arange<256>()) % N;
  auto offs_k = arange<64>();
  auto a_ptrs = a + (col(offs_am) * sam + row(offs_k) * sak);
  auto b_ptrs = b + (col(offs_k) * sbk + row(offs_bn) * sbn);
  auto acc = zeros<float, 128, 256>();
  for (int k = 0; k < cdiv(K, 64); ++k) {
    acc = dot(load(a_ptrs, row(offs_k) < K - k * 64, 0.0f), load(b_ptrs, col(offs_k) < K - k * 64, 0.0f), acc);
    a_ptrs += 64 * sak;
    b_ptrs += 64 * sbk;
  }
  acc = leaky_relu(acc);
  auto offs_cm = pid_m * 128 + arange<128>();
  auto offs_cn = pid_n * 256 + arange<256>();
  store(c + scm * col(offs_cm) + scn * row(offs_cn), cast<half>(acc), (col(offs_cm) < M) & (row(offs_cn) < N));
}
// CHECK-LABEL: kernel tutorial (tutorial)
// CHECK: registers: about 176 registers per thread for tiles
// CHECK-LABEL: kernel tutorial_sbk_1_tma (tutorial)
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies
// CHECK: registers: about 128 registers per thread for tiles
// CHECK: box copied by TMA at line 28
// CHECK: box copied by TMA at line 28
// CHECK-LABEL: kernel tutorial_sam_1_tma (tutorial)
// CHECK: warp-specialised
// CHECK-LABEL: kernel tutorial_tma (tutorial)
// CHECK: warp-specialised
// CHECK: registers: about 128 registers per thread for tiles
