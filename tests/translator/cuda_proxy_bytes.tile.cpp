// Two TMA-pipelined K loops in a row, the first one's epilogue staged through shared memory: by
// liveness the staging buffer and the second loop's rings share bytes, the mbarriers never do
// (PTX requires mbarrier.inval before an mbarrier's bytes serve another purpose; the first
// loop's barriers used to lie under the second loop's ring). The staging stores are ordinary
// writes to bytes the second loop's TMA copies write later: a proxy fence comes between (accesses
// to the same bytes through the generic and the async proxy are ordered only by one), once, before
// the copies' `if` (the barrier in it then orders every thread's fenced writes before the copy),
// and not in the loop, which the fence already covers.
// ARGS: --arch sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4, num_stages = 3)
void two_loops(const half* a, const half* b, const half* d, half* c, float* e, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = arange<64>();
  auto rn2 = arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 64)
    acc = dot(load(a + col(rm) * K + row(k + rk)), load(b + col(k + rk) * 64 + row(rn)), acc);
  store(c + col(rm) * 64 + row(rn), cast<half>(acc));
  auto acc2 = zeros<float, 64, 128>();
  for (int k = 0; k < K; k += 64)
    acc2 = dot(load(a + col(rm) * K + row(k + rk)), load(d + col(k + rk) * 128 + row(rn2)), acc2);
  store(e + col(rm) * 128 + row(rn2), acc2);
}

// CHECK-LABEL: ---- two_loops -> two_loops_tma ----
// CHECK: // Shared memory: 73776 bytes (dynamic); buffers whose lifetimes do not overlap share bytes (mbarriers never do):
// CHECK-NEXT: //   acc_ring at 0, 24576 bytes
// CHECK-NEXT: //   store_cvt_smem at 0, 9216 bytes
// CHECK-NEXT: //   acc2_ring_1 at 0, 49152 bytes
// CHECK-NEXT: //   acc_ring_1 at 24576, 24576 bytes
// CHECK-NEXT: //   acc2_ring at 49152, 24576 bytes
// CHECK-NEXT: //   k_full at 73728, 24 bytes (3 mbarriers)
// CHECK-NEXT: //   k_full_1 at 73752, 24 bytes (3 mbarriers)
// CHECK: unsigned char* const store_cvt_smem = smem + 0;
// CHECK: *reinterpret_cast<unsigned*>(store_cvt_smem + {{.*}}) = word;
// CHECK-NOT: fence_proxy_async
// CHECK: tilecc::mbarrier_init(k_full_1
// CHECK: tilecc::fence_proxy_async();
// CHECK-NEXT: if ({{[a-z_0-9]+}}) {
// CHECK-NEXT: __syncthreads();
// CHECK: tilecc::tma_load_2d(acc2_ring_slot_1,
// CHECK: for (int k_1 = 0; k_1 < K; k_1 += 64) {
// CHECK-NOT: fence_proxy_async
// CHECK: tilecc::tma_load_2d(acc2_ring_slot
// CHECK-NOT: fence_proxy_async
// CHECK: cudaError_t launch_two_loops(
