// A dot's result stored where 16-byte accesses are proven goes through shared memory: the
// accumulators (runs of two elements per thread) are written to a padded buffer that shares the
// rings' bytes (they are dead after the loop), read back 16 bytes per access in the store's own
// layout, and stored 16 bytes at a time (AssignLayouts: stagesThroughShared). Not staged: the
// general variant (4-byte stores only), f32 results (pairs of 8 bytes against 16: not measured)
// and a store inside the loop. wgmma's accumulators (the sm_90a variant) are staged the same way,
// after the last wgmma_wait, into a layout where each warp reads back the rows it wrote: a warp
// barrier between the writes and the reads, not a CTA one.
// ARGS: -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- gemm<half> -> gemm_half ----
// CHECK: store at line [[#STORE:]]: 1 x f16 = 2 bytes per access
// CHECK-NOT: _cvt at
// CHECK-LABEL: ---- gemm<half> -> gemm_half_aligned ----
// CHECK: store at line [[#STORE]]: 8 x f16 = 16 bytes per access
// CHECK: Shared memory: {{[0-9]+}} bytes (dynamic); buffers whose lifetimes do not overlap share bytes (mbarriers never do):
// CHECK: c_tile_cvt at 0, 34816 bytes ([128][128] f16, 272-byte rows): layout conversion for the store at line [[#STORE]], read back 16 bytes per access
// CHECK: tilecc::cp_async_wait<0>();
// CHECK: unsigned char* const c_tile_cvt = smem + 0;
// CHECK-NEXT: __syncthreads();  // writes after the reads of mma (line [[#STORE-3]]) by other warps
// CHECK: *reinterpret_cast<unsigned*>(c_tile_cvt + {{.*}} * 272 + {{.*}}) = word;
// CHECK: __syncthreads();  // reads after the writes of shared_store (line [[#STORE]]) by other warps
// CHECK: const uint4 word = *reinterpret_cast<const uint4*>(c_tile_cvt +
// CHECK: if (store_and[reg]) *reinterpret_cast<uint4*>(store_ptr
// CHECK-LABEL: ---- gemm<half> -> gemm_half_sm90a_aligned ----
// CHECK: store at line [[#STORE]]: 8 x f16 = 16 bytes per access
// CHECK: c_tile_cvt at 0, 34816 bytes ([128][128] f16, 272-byte rows): layout conversion for the store at line [[#STORE]], read back 16 bytes per access
// CHECK: tilecc::wgmma_wait<0>();
// CHECK: unsigned char* const c_tile_cvt = smem + 0;
// CHECK-NEXT: __syncthreads();
// CHECK: *reinterpret_cast<unsigned*>(c_tile_cvt + {{.*}} * 272 + {{.*}}) = word;
// CHECK-NOT: __syncthreads
// CHECK: __syncwarp();  // reads after the writes of shared_store (line [[#STORE]]) within each warp
// CHECK: const uint4 word = *reinterpret_cast<const uint4*>(c_tile_cvt +
// CHECK-LABEL: ---- gemm<float> -> gemm_float_aligned ----
// CHECK: store at line [[#STORE]]: 2 x f32 = 8 bytes per access (the address is only known to be a multiple of 8 bytes)
// CHECK-NOT: _cvt at
// CHECK: *reinterpret_cast<uint2*>(store_ptr
// CHECK-LABEL: ---- per_block -> per_block_aligned ----
// CHECK: 2 x f16 = 4 bytes per access (the address is only known to be a multiple of 4 bytes)
// CHECK-NOT: _cvt at
// CHECK: *reinterpret_cast<unsigned*>(store_ptr
template <typename T>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm(const half* a, const half* b, T* c, int m, int n, TILECC_MULTIPLE_OF(16) int k) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<32>();
  auto acc = zeros<float, 128, 128>();
  for (int k0 = 0; k0 < k; k0 += 32) {
    auto x = load(a + col(rm) * k + row(k0 + rk), (col(rm) < m) & row(k0 + rk < k), 0.0f);
    auto y = load(b + col(k0 + rk) * n + row(rn), col(k0 + rk < k) & row(rn < n), 0.0f);
    acc = dot(x, y, acc);
  }
  auto c_tile = cast<T>(acc);
  store(c + col(rm) * n + row(rn), c_tile, (col(rm) < m) & row(rn < n));
}
template void gemm<half>(const half*, const half*, half*, int, int, int);
template void gemm<float>(const half*, const half*, float*, int, int, int);

// Each iteration stores its own product: the store is in the loop, so it is not staged.
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void per_block(const half* a, const half* b, half* c, TILECC_MULTIPLE_OF(16) int k) {
  auto r = arange<64>();
  auto rk = arange<32>();
  for (int k0 = 0; k0 < k; k0 += 32) {
    auto x = load(a + col(r) * k + row(k0 + rk));
    auto y = load(b + col(k0 + rk) * 64 + row(r));
    store(c + (k0 / 32) * 4096 + col(r) * 64 + row(r), cast<half>(dot(x, y)));
  }
}
