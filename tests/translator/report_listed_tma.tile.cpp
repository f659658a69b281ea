// K blocks taken from a list in memory: the TMA variant's box coordinates use an index loaded in
// the loop (read for each iteration in range, by the producer warp group where there is one), and
// each program checks before the loop that no box starts below its tensor.
// ARGS: --emit=report --arch sm_90a
#include <tilecc/tile.hpp>
using namespace tilecc;

template <bool WS>
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = WS)
void listed(const bfloat16* a, const bfloat16* b, const int* blocks, int nblocks, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int j = 0; j < nblocks; ++j) {
    const int k = load(blocks + j) * 64;
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & row(k + rk < K), 0.0f);
    auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
template void listed<false>(const bfloat16*, const bfloat16*, const int*, int, float*, int, int, int);
template void listed<true>(const bfloat16*, const bfloat16*, const int*, int, float*, int, int, int);

// CHECK-LABEL: kernel listed_false_tma (listed<false>)
// CHECK: checked per program (line 17, a trap otherwise): a TMA box would start below its tensor
// CHECK: box copied by TMA at line 17
// CHECK: box copied by TMA at line 18
// CHECK-LABEL: kernel listed_true_tma (listed<true>)
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies
// CHECK: box copied by TMA at line 17
