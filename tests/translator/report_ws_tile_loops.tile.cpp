// Loops the user wrote around a TMA loop, each warp-specialised with both roles running it (the
// forms checked on the GPU in tests/bench/results/2026-11-28-h200-ws-tile-loop.txt, call 11): a
// tile loop that also carries a tile, stored after it; one counting down with a negative step;
// and split-K by tiles, each tile's K loop over its own (possibly empty) range.
// ARGS: --emit=report --arch sm_90a
#include <tilecc/tile.hpp>
using namespace tilecc;
// CHECK-LABEL: kernel carry_tile_tma (carry_tile)
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line [[@LINE+4]], the ring carried over its iterations
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = true)
void carry_tile(const half* a, const half* b, half* c, float* sums, int M, int N, int K) {
  auto total = zeros<float, 128>();
  for (int t = program_id(0); t < cdiv(M, 128) * cdiv(N, 128); t += num_programs(0)) {
    auto rm = t / cdiv(N, 128) * 128 + arange<128>();
    auto rn = t % cdiv(N, 128) * 128 + arange<128>();
    auto rk = arange<64>();
    auto acc = zeros<float, 128, 128>();
    for (int k = 0; k < K; k += 64) {
      auto at = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
      auto bt = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(at, bt, acc);
    }
    total = total + sum<1>(acc);
    store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
  }
  store(sums + program_id(0) * 128 + arange<128>(), total);
}
// CHECK-LABEL: kernel down_tma (down)
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line [[@LINE+4]], the ring carried over its iterations
TILECC_KERNEL(num_warps = 8, num_stages = 4, warp_specialize = true)
void down(const half* a, const half* b, half* c, int M, int N, int K) {
  const int tiles = cdiv(M, 128) * cdiv(N, 128);
  for (int t = tiles - 1 - program_id(0); t >= 0; t -= num_programs(0)) {
    auto rm = t / cdiv(N, 128) * 128 + arange<128>();
    auto rn = t % cdiv(N, 128) * 128 + arange<128>();
    auto rk = arange<64>();
    auto acc = zeros<float, 128, 128>();
    for (int k = 0; k < K; k += 64) {
      auto at = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
      auto bt = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(at, bt, acc);
    }
    store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
  }
}
// CHECK-LABEL: kernel krange_tma (krange)
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line [[@LINE+4]], the ring carried over its iterations
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = true)
void krange(const half* a, const half* b, float* c, int M, int N, int K, int splits) {
  const int tn = cdiv(N, 128), tm = cdiv(M, 128);
  for (int t = program_id(0); t < tm * tn * splits; t += num_programs(0)) {
    const int s = t / (tm * tn), r = t % (tm * tn);
    auto rm = r / tn * 128 + arange<128>();
    auto rn = r % tn * 128 + arange<128>();
    auto rk = arange<64>();
    const int per = cdiv(cdiv(K, 64), splits) * 64;
    const int k0 = s * per, k1 = min(K, k0 + per);
    auto acc = zeros<float, 128, 128>();
    for (int k = k0; k < k1; k += 64) {
      auto at = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
      auto bt = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(at, bt, acc);
    }
    atomic_add(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
  }
}
