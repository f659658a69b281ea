// A `return` inside a pipelined dot loop: the conversion of the carried accumulator for the store
// before it has the store's line, so the report names it for the register peak and the
// barriers (it said "line 0"; user campaign 3, finding 5).
// ARGS: --emit=report --arch sm_80
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_kend(const half* a, const half* b, float* c, const int* kend, int M, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto rk = arange<32>();
  const int ke = load(kend + program_id(0));
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    if (k >= ke) {
      store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
      return;
    }
    auto x = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto y = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}

// CHECK-LABEL: kernel gemm_kend_aligned (gemm_kend)
// CHECK-NOT: line 0
// CHECK: registers: about {{[0-9]+}} registers per thread for tiles (at line 16:
// CHECK-NOT: line 0
// CHECK: CTA barrier at line 16: reads after the writes of shared_store (line 16) by other warps
// CHECK-NOT: line 0
