// sm_90 building blocks of the GPU level's asynchronous ops: mbarriers with transaction
// counts, TMA (bulk tensor) copies, the async-proxy fence, named barriers, register
// reallocation and wgmma group control, as plain inline functions over PTX (the PTX ISA's
// mbarrier, cp.async.bulk.tensor, fence.proxy.async, bar.sync, setmaxnreg and wgmma sections).
// The generated code calls them only from sm_90a bodies; elsewhere they compile to nothing.
#pragma once

#include <cuda.h>  // CUtensorMap and the encoder's types (nothing here links against the driver)
#include <cuda_runtime_api.h>

#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILECC_SM90 1
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TILECC_SM90A 1
#endif

namespace tilecc {

// ---- fences and barriers ----
/// Ordinary shared-memory stores made so far become visible to the async proxy (TMA, wgmma).
__device__ __forceinline__ void fence_proxy_async() {
#ifdef TILECC_SM90
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
/// mbarrier initialisations become visible to the other threads and the async proxy.
__device__ __forceinline__ void fence_mbarrier_init() {
#ifdef TILECC_SM90
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
/// Barrier `id` (1..15; 0 is __syncthreads) among `threads` threads (a multiple of 32).
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
/// Arrives at barrier `id` without waiting: the threads that bar.sync on it go on once
/// `threads` threads have arrived or synced.
__device__ __forceinline__ void named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// ---- mbarriers ----
__device__ __forceinline__ void mbarrier_init(void* bar, unsigned arrivals) {
#ifdef TILECC_SM90
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(arrivals) : "memory");
#endif
}
/// Arrives and announces the bytes this phase's transactions (TMA copies) will bring.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(void* bar, unsigned bytes) {
#ifdef TILECC_SM90
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
#endif
}
__device__ __forceinline__ void mbarrier_arrive(void* bar) {
#ifdef TILECC_SM90
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
#endif
}
/// Waits until the phase with parity `phase` (0 or 1) has completed.
__device__ __forceinline__ void mbarrier_wait(void* bar, int phase) {
#ifdef TILECC_SM90
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "wait:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(phase)
      : "memory");
#endif
}

// ---- TMA: one thread moves a box between global and shared memory ----
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, void* bar, int c0, int c1) {
#ifdef TILECC_SM90
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(c0), "r"(c1)
      : "memory");
#endif
}
__device__ __forceinline__ void tma_load_3d(void* dst, const CUtensorMap* map, void* bar, int c0, int c1, int c2) {
#ifdef TILECC_SM90
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];\n" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
#endif
}
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int c0, int c1) {
#ifdef TILECC_SM90
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(map), "r"(smem_addr(src)),
               "r"(c0), "r"(c1)
               : "memory");
#endif
}
__device__ __forceinline__ void tma_store_3d(const CUtensorMap* map, const void* src, int c0, int c1, int c2) {
#ifdef TILECC_SM90
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(map), "r"(smem_addr(src)),
               "r"(c0), "r"(c1), "r"(c2)
               : "memory");
#endif
}
// Boxes of 4 and 5 axes (outer axes: batch and head offsets, one element each).
__device__ __forceinline__ void tma_load_4d(void* dst, const CUtensorMap* map, void* bar, int c0, int c1, int c2, int c3) {
#ifdef TILECC_SM90
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];\n" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
      : "memory");
#endif
}
__device__ __forceinline__ void tma_load_5d(void* dst, const CUtensorMap* map, void* bar, int c0, int c1, int c2, int c3, int c4) {
#ifdef TILECC_SM90
  asm volatile(
      "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2];\n" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
      : "memory");
#endif
}
// im2col mode: coordinates (channel, pixel axes innermost first, image) of the first pixel's
// window position, and one 16-bit offset per spatial axis (innermost first) added to every
// pixel's position: the hardware walks the pixels in order and fills the padding with zeros.
__device__ __forceinline__ void tma_load_im2col_3d(void* dst, const CUtensorMap* map, void* bar, int c0, int c1, int c2, int o0) {
#ifdef TILECC_SM90
  const unsigned short u0 = static_cast<unsigned short>(o0);
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2], {%6};\n" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2), "h"(u0)
      : "memory");
#endif
}
__device__ __forceinline__ void tma_load_im2col_4d(void* dst, const CUtensorMap* map, void* bar, int c0, int c1, int c2, int c3, int o0,
                                                   int o1) {
#ifdef TILECC_SM90
  const unsigned short u0 = static_cast<unsigned short>(o0), u1 = static_cast<unsigned short>(o1);
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2], {%7, %8};\n" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "h"(u0), "h"(u1)
      : "memory");
#endif
}
__device__ __forceinline__ void tma_load_im2col_5d(void* dst, const CUtensorMap* map, void* bar, int c0, int c1, int c2, int c3, int c4,
                                                   int o0, int o1, int o2) {
#ifdef TILECC_SM90
  const unsigned short u0 = static_cast<unsigned short>(o0), u1 = static_cast<unsigned short>(o1), u2 = static_cast<unsigned short>(o2);
  asm volatile(
      "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2], {%8, %9, %10};\n" ::"r"(
          smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "h"(u0), "h"(u1), "h"(u2)
      : "memory");
#endif
}
__device__ __forceinline__ void tma_store_4d(const CUtensorMap* map, const void* src, int c0, int c1, int c2, int c3) {
#ifdef TILECC_SM90
  asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];\n" ::"l"(map), "r"(smem_addr(src)),
               "r"(c0), "r"(c1), "r"(c2), "r"(c3)
               : "memory");
#endif
}
__device__ __forceinline__ void tma_store_5d(const CUtensorMap* map, const void* src, int c0, int c1, int c2, int c3, int c4) {
#ifdef TILECC_SM90
  asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];\n" ::"l"(map), "r"(smem_addr(src)),
               "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
               : "memory");
#endif
}
__device__ __forceinline__ void tma_store_commit() {
#ifdef TILECC_SM90
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}
/// Waits until at most N bulk store groups still read their shared memory.
template <int N>
__device__ __forceinline__ void tma_store_wait() {
#ifdef TILECC_SM90
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
#endif
}

// ---- warp groups ----
/// Register reallocation of the executing warp group (values: multiples of 8 in [24, 256]).
template <int N>
__device__ __forceinline__ void setmaxnreg_inc() {
#ifdef TILECC_SM90A
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}
template <int N>
__device__ __forceinline__ void setmaxnreg_dec() {
#ifdef TILECC_SM90A
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}
__device__ __forceinline__ void wgmma_fence() {
#ifdef TILECC_SM90A
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit() {
#ifdef TILECC_SM90A
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
/// The 64-bit shared-memory matrix descriptor of a wgmma operand (PTX ISA, "Matrix Descriptor
/// Format"): start address, leading and stride byte offsets (each >> 4) and the swizzle mode
/// (1: 128B, 2: 64B, 3: 32B; not TMA's numbering). `Swizzle` is the buffer's swizzle in bytes.
template <int Swizzle>
__device__ __forceinline__ std::uint64_t wgmma_desc(const void* start, unsigned leading, unsigned stride) {
  static_assert(Swizzle == 128 || Swizzle == 64 || Swizzle == 32, "wgmma operands are swizzled by 32, 64 or 128 bytes");
  constexpr std::uint64_t mode = Swizzle == 128 ? 1 : Swizzle == 64 ? 2 : 3;
  return static_cast<std::uint64_t>((smem_addr(start) & 0x3FFFF) >> 4) | static_cast<std::uint64_t>((leading >> 4) & 0x3FFF) << 16 |
         static_cast<std::uint64_t>((stride >> 4) & 0x3FFF) << 32 | mode << 62;
}
/// Pins an accumulator register at this point of the program: the compiler may not move its
/// reads or writes across (after a wgmma wait, before the next wgmma), as it otherwise may
/// for registers an asm statement's "memory" clobber does not cover.
__device__ __forceinline__ void fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }
/// An accumulator register kept in flight across a loop, read after its final wait: adding
/// -0.0 leaves every value (NaN, ±0 included) as it is, but ptxas otherwise folds the first
/// conversions of the epilogue into the wgmma pipeline and serialises it (C7514).
__device__ __forceinline__ void wgmma_settle(float& r) {
#ifdef TILECC_SM90A
  asm volatile("add.f32 %0, %0, 0f80000000;\n" : "+f"(r));
#endif
}
/// Waits until at most N wgmma groups of this warp group are in flight.
template <int N>
__device__ __forceinline__ void wgmma_wait() {
#ifdef TILECC_SM90A
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}

// ---- TMA descriptors, encoded by the launcher ----
/// The last descriptor a launcher encoded for one tensor parameter (one per launcher, variant
/// and tensor, per host thread): re-encoded only when an argument it depends on changes.
struct TensorMapCache {
  bool valid = false, ok = false;
  const void* base = nullptr;
  int dtype = 0, rank = 0, swizzle = 0, shift = 0;
  std::uint64_t dims[5] = {}, strides[4] = {};
  std::uint32_t box[5] = {};
  CUtensorMap map;
};

namespace detail {
/// Whether `c` holds the descriptor of these arguments (`boxes` entries of `box`; `shift`: the
/// im2col windows' shift, 0 for a tiled one); otherwise records them, not yet encoded.
static inline bool tensor_map_cached(TensorMapCache& c, const void* base, int dtype, int rank, const std::uint64_t* dims,
                                     const std::uint64_t* strides, const std::uint32_t* box, int boxes, int swizzle, int shift) {
  bool same = c.valid && c.base == base && c.dtype == dtype && c.rank == rank && c.swizzle == swizzle && c.shift == shift;
  for (int i = 0; same && i < rank; ++i) same = c.dims[i] == dims[i] && (i + 1 == rank || c.strides[i] == strides[i]);
  for (int i = 0; same && i < boxes; ++i) same = c.box[i] == box[i];
  if (same) return true;
  c.valid = true;
  c.ok = false;
  c.base = base;
  c.dtype = dtype;
  c.rank = rank;
  c.swizzle = swizzle;
  c.shift = shift;
  for (int i = 0; i < rank; ++i) {
    c.dims[i] = dims[i];
    if (i + 1 < rank) c.strides[i] = strides[i];
  }
  for (int i = 0; i < boxes; ++i) c.box[i] = box[i];
  return false;
}
/// Whether TMA can describe the tensor: a 16-byte aligned base, sizes in 1 .. 2^32, strides
/// multiples of 16 bytes below 2^40.
static inline bool tensor_describable(const void* base, int rank, const std::uint64_t* dims, const std::uint64_t* strides) {
  if (reinterpret_cast<std::uintptr_t>(base) % 16 != 0) return false;
  for (int i = 0; i < rank; ++i)
    if (dims[i] == 0 || dims[i] > (std::uint64_t{1} << 32) || (i + 1 < rank && (strides[i] % 16 != 0 || strides[i] >= (std::uint64_t{1} << 40))))
      return false;
  return true;
}
/// A driver function through the runtime (cudaGetDriverEntryPointByVersion): nothing links
/// against libcuda. Null where the driver lacks it.
template <class Fn>
static inline Fn driver_function(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) != cudaSuccess || q != cudaDriverEntryPointSuccess)
    fn = nullptr;
  return reinterpret_cast<Fn>(fn);
}
/// The L2 promotion of a descriptor's fetches: 256 bytes, but 128 where rows start off 32-byte
/// sectors (a base or a stride not a multiple of 32 bytes). TMA then splits each row's copy into
/// more L2 requests (4.5x as many for the fp16 GEMM at a row pitch of 8208 bytes), and 256-byte
/// promotion made that GEMM 18% slower than 128-byte (H100: 443 against 541 TFLOP/s; aligned
/// pitches within noise either way; tests/bench/results/2026-11-27-h100-ragged.txt).
static inline int l2_promotion_bytes(const void* base, int rank, const std::uint64_t* strides) {
  if (reinterpret_cast<std::uintptr_t>(base) % 32 != 0) return 128;
  for (int i = 0; i + 1 < rank; ++i)
    if (strides[i] % 32 != 0) return 128;
  return 256;
}
static inline CUtensorMapL2promotion l2_promotion(const void* base, int rank, const std::uint64_t* strides) {
  return l2_promotion_bytes(base, rank, strides) == 256 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
}
static inline CUtensorMapSwizzle swizzle_mode(int swizzle) {
  return swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
         : swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B : CU_TENSOR_MAP_SWIZZLE_NONE;
}
}  // namespace detail

/// A tiled descriptor (axes innermost first, strides in bytes, zero fill out of bounds), or null
/// where TMA cannot describe the tensor (alignment, strides, sizes): the launcher then takes
/// another variant. cuTensorMapEncodeTiled comes from the driver through the runtime.
static inline const CUtensorMap* tensor_map(TensorMapCache& c, const void* base, int dtype, int rank, const std::uint64_t* dims,
                                            const std::uint64_t* strides, const std::uint32_t* box, int swizzle) {
  if (detail::tensor_map_cached(c, base, dtype, rank, dims, strides, box, rank, swizzle, 0)) return c.ok ? &c.map : nullptr;
  if (!detail::tensor_describable(base, rank, dims, strides)) return nullptr;
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                              const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static const Encode encode = detail::driver_function<Encode>("cuTensorMapEncodeTiled");
  if (!encode) return nullptr;
  cuuint64_t d[5], st[4];
  cuuint32_t b[5], e[5];
  for (int i = 0; i < rank; ++i) {
    d[i] = dims[i];
    b[i] = box[i];
    e[i] = 1;
    if (i + 1 < rank) st[i] = strides[i];
  }
  c.ok = encode(&c.map, static_cast<CUtensorMapDataType>(dtype), static_cast<cuuint32_t>(rank), const_cast<void*>(base), d, st, b, e,
                CU_TENSOR_MAP_INTERLEAVE_NONE, detail::swizzle_mode(swizzle), detail::l2_promotion(base, rank, strides),
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
  return c.ok ? &c.map : nullptr;
}

/// An im2col descriptor (axes innermost first: channels, the spatial axes, images; strides in
/// bytes): `pixels` pixels of `channels` channels per copy, each spatial axis's window shifted by
/// −shift at both corners (the copies' offsets add shift back), zero fill; or null where TMA cannot
/// describe the tensor. Cached like tensor_map.
static inline const CUtensorMap* tensor_map_im2col(TensorMapCache& c, const void* base, int dtype, int rank, const std::uint64_t* dims,
                                                   const std::uint64_t* strides, std::uint32_t pixels, std::uint32_t channels, int shift,
                                                   int swizzle) {
  const std::uint32_t box[2] = {channels, pixels};
  if (detail::tensor_map_cached(c, base, dtype, rank, dims, strides, box, 2, swizzle, shift)) return c.ok ? &c.map : nullptr;
  if (rank < 3 || rank > 5 || !detail::tensor_describable(base, rank, dims, strides)) return nullptr;
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*, const int*,
                              const int*, cuuint32_t, cuuint32_t, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static const Encode encode = detail::driver_function<Encode>("cuTensorMapEncodeIm2col");
  if (!encode) return nullptr;
  cuuint64_t d[5], st[4];
  cuuint32_t e[5];
  int lower[3], upper[3];
  for (int i = 0; i < rank; ++i) {
    d[i] = dims[i];
    e[i] = 1;
    if (i + 1 < rank) st[i] = strides[i];
  }
  for (int i = 0; i < rank - 2; ++i) lower[i] = upper[i] = -shift;
  c.ok = encode(&c.map, static_cast<CUtensorMapDataType>(dtype), static_cast<cuuint32_t>(rank), const_cast<void*>(base), d, st, lower, upper,
                channels, pixels, e, CU_TENSOR_MAP_INTERLEAVE_NONE, detail::swizzle_mode(swizzle), detail::l2_promotion(base, rank, strides),
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
  return c.ok ? &c.map : nullptr;
}

}  // namespace tilecc
