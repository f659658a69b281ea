// Dots that share an accumulator take one tensor-core path. In a general variant the K loop's
// dot stays on mma.sync (its operands are loaded one element at a time every iteration); the
// masked tail dot after the loop then stays there too, instead of taking wgmma on sm_90a and
// converting the loop's accumulator through shared memory (user report: ptxas also injected a
// warpgroup.arrive, C7519). The variants whose loads are 16 bytes wide run both on wgmma.
// ARGS: --emit=report --arch sm_80,sm_90a
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_ktail(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  const int kfull = K / BK * BK;
  for (int k = 0; k < kfull; k += BK)
    acc = dot(load(a + col(rm) * K + row(k + rk), col(rm < M), 0.0f), load(b + col(k + rk) * N + row(rn), row(rn < N), 0.0f), acc);
  if (kfull < K)
    acc = dot(load(a + col(rm) * K + row(kfull + rk), col(rm < M) & row(kfull + rk < K), 0.0f),
              load(b + col(kfull + rk) * N + row(rn), col(kfull + rk < K) & row(rn < N), 0.0f), acc);
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
template void gemm_ktail<64, 64, 32>(const half*, const half*, float*, int, int, int);

// CHECK-LABEL: kernel gemm_ktail_64_64_32 (gemm_ktail<64, 64, 32>), 4 warps, for sm_80
// CHECK-NOT: layout conversion
// CHECK: dot at line 19: mma.sync; not wgmma on sm_90a: both operands are loaded one element at a time
// CHECK-NEXT: dot at line 21: mma.sync; not wgmma on sm_90a: its accumulator is shared with the dot at line 19, which stays on mma.sync
// CHECK-LABEL: kernel gemm_ktail_64_64_32_sm90a_aligned (gemm_ktail<64, 64, 32>), 4 warps, for sm_90a
// CHECK: dot at line 19: wgmma m64n64k16
// CHECK-NEXT: dot at line 21: wgmma m64n64k16
