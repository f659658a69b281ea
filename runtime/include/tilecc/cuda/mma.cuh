// Tensor-core building blocks of dot(): cp.async copies into shared memory, ldmatrix loads
// from it and mma.sync, as plain inline functions over PTX. Fragments follow the PTX ISA's mma.m16n8k* layouts; the
// generated code decides which shared-memory rows each lane points at.
#pragma once

#include <cstdint>

namespace tilecc {

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// Byte offset of byte `byte` of row `row` in a swizzled shared-memory buffer of `Rows` rows
/// (the translator's sharedOffset): rows in panels of S bytes, and the 16-byte chunk index
/// within each 128-byte line XORed with the line index modulo S / 16, as wgmma and TMA expect.
/// Host code too, for tests/gpu/swizzle_test.cu.
template <int S, int Rows>
__host__ __device__ __forceinline__ int swizzled(int row, int byte) {
  // Unsigned and in parts (panel, row, 16-byte chunk, byte in the chunk): in an unrolled loop the
  // chunk's permutation then depends on the thread's row bits alone and is computed once per
  // thread, not per access (the 128x256 GEMM's epilogue: 460 integer instructions in PTX -> 185).
  const unsigned b = static_cast<unsigned>(byte), r = static_cast<unsigned>(row);
  unsigned line;  // the 128-byte line holding the chunk (a panel starts a line where S * Rows allows)
  if constexpr (Rows * S % 128 == 0) line = b / S * (Rows * S / 128) + r * S / 128;
  else line = (b / S * (Rows * S) + r * S) / 128;
  const unsigned chunk = (b % S / 16) ^ (line % (S / 16));
  return static_cast<int>(b / S * (Rows * S) + r * S + chunk * 16 + b % 16);
}

// ldmatrix: lane l supplies the address of row l % 8 of 8x8 matrix l / 8 (16 bytes each).
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldmatrix_x2(unsigned (&r)[2], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldmatrix_x1(unsigned (&r)[1], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldmatrix_x2_trans(unsigned (&r)[2], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(smem_addr(p)));
}

// D = A·B + D for one m16n8 tile; c0, c1 are row lane/4, c2, c3 row lane/4 + 8.
__device__ __forceinline__ void mma_f16(float& c0, float& c1, float& c2, float& c3, const unsigned (&a)[4],
                                        const unsigned (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma_bf16(float& c0, float& c1, float& c2, float& c3, const unsigned (&a)[4],
                                         const unsigned (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma_tf32(float& c0, float& c1, float& c2, float& c3, const unsigned (&a)[4],
                                         const unsigned (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma_s8(int& c0, int& c1, int& c2, int& c3, const unsigned (&a)[2], const unsigned (&b)[1]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
               : "+r"(c0), "+r"(c1), "+r"(c2), "+r"(c3)
               : "r"(a[0]), "r"(a[1]), "r"(b[0]));
}

// cp.async: global → shared without registers; a false predicate copies nothing and fills
// the destination with zeros. Copies complete in commit groups.
__device__ __forceinline__ void cp_async16(void* dst, const void* src, bool pred) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(pred ? 16 : 0));
}
__device__ __forceinline__ void cp_async8(void* dst, const void* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(pred ? 8 : 0));
}
__device__ __forceinline__ void cp_async4(void* dst, const void* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(pred ? 4 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
// Waits until at most N of this thread's commit groups are pending.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// float → TF32 as the tensor cores round it (nearest, ties away from zero), as a float.
__device__ __forceinline__ float to_tf32(float x) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}

}  // namespace tilecc
