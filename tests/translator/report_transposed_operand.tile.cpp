// An int8 GEMM with B given [K][N]: mma.sync reads 8-bit B K-major, so the tile is stored
// transposed into shared memory, which cp.async cannot do; the report says why that load is not
// copied ahead and what layout would be. B given [N][K] (read through trans()) is copied ahead.
// ARGS: --emit=report --arch sm_80
#include <tilecc/tile.hpp>
using namespace tilecc;

template <bool BT>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void igemm(const int8_t* a, const int8_t* b, int* c, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<int, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto x = load(a + col(rm) * K + row(k + rk));
    if constexpr (BT) acc = dot(x, trans(load(b + col(rn) * K + row(k + rk))), acc);
    else acc = dot(x, load(b + col(k + rk) * N + row(rn)), acc);
  }
  store(c + col(rm) * N + row(rn), acc);
}
template void igemm<false>(const int8_t*, const int8_t*, int*, int, int);
template void igemm<true>(const int8_t*, const int8_t*, int*, int, int);

// CHECK-LABEL: kernel igemm_false_aligned (igemm<false>)
// CHECK: load at line 16: 16 x i8 = 16 bytes per access, copied to shared memory ahead by cp.async
// CHECK: load at line 18: 16 x i8 = 16 bytes per access, not copied ahead: mma reads this operand transposed in shared memory (8-bit elements K-major), and cp.async copies runs only as they lie in memory; given with K contiguous (B as [N][K], read through trans()) it is copied ahead
// CHECK-LABEL: kernel igemm_true_aligned (igemm<true>)
// CHECK: load at line 16: 16 x i8 = 16 bytes per access, copied to shared memory ahead by cp.async
// CHECK: load at line 17: 16 x i8 = 16 bytes per access, copied to shared memory ahead by cp.async
