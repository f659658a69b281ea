// A pipeline asked for more stages than shared memory holds: the specialised variants take
// fewer (the general kernel stages nothing) and say so, in the report and the kernel's header,
// rather than silently. 128x256x64 f16 tiles need 48 KB a stage: 4 of the 6 fit in sm_90a's
// 227 KB (3 beside the TMA variant's output buffer); on sm_80 (163 KB, padded rows) 3.
// ARGS: --emit=report --arch=sm_80,sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 8, num_stages = 6)
void deep(const half* a, const half* b, half* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 256 + arange<256>();
  auto acc = zeros<float, 128, 256>();
  for (int k = 0; k < K; k += 64) {
    auto rk = k + arange<64>();
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(rk), (col(rm) < M) & row(rk < K), 0.0f);
    auto y = load(b + cast<int64_t>(col(rk)) * N + row(rn), col(rk < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < N));
}
// CHECK-LABEL: kernel deep (deep), 8 warps, for sm_80
// CHECK-NOT: pipeline:
// CHECK-LABEL: kernel deep_aligned (deep), 8 warps, for sm_80
// CHECK: shared memory: {{[0-9]+}} bytes
// CHECK-NEXT: pipeline: 3 stages of the 6 num_stages asks for (more do not fit in sm_80's shared memory)
// CHECK-LABEL: kernel deep_sm90a_aligned (deep), 8 warps, for sm_90a
// CHECK: shared memory: {{[0-9]+}} bytes
// CHECK-NEXT: pipeline: 4 stages of the 6 num_stages asks for (more do not fit in sm_90a's shared memory)
// The TMA variant's mbarriers and output buffer leave room for 3.
// CHECK-LABEL: kernel deep_sm90a_tma (deep), 8 warps, for sm_90a
// CHECK: shared memory: {{[0-9]+}} bytes
// CHECK-NEXT: pipeline: 3 stages of the 6 num_stages asks for (more do not fit in sm_90a's shared memory)
