// --emit=report: the access width of every load and store and, below 16 bytes, every fact
// that limits it; the aligned variant and the condition under which the launcher picks it.
// ARGS: --emit=report
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel aligned (aligned), 4 warps
// CHECK-NOT: variant
TILECC_KERNEL()
void aligned(TILECC_ALIGNED(16) const float* x, TILECC_ALIGNED(16) float* y) {
  // CHECK: load at line [[@LINE+1]]: 4 x f32 = 16 bytes per access
  auto v = load(x + arange<512>());
  // CHECK-NEXT: store at line [[@LINE+1]]: 4 x f32 = 16 bytes per access
  store(y + arange<512>(), v);
}

// CHECK-LABEL: kernel misaligned (misaligned)
// CHECK-NOT: variant
TILECC_KERNEL()
void misaligned(TILECC_ALIGNED(16) const float* x, TILECC_ALIGNED(16) float* y) {
  // CHECK: load at line [[@LINE+1]]: 1 x f32 = 4 bytes per access (the address is only known to be a multiple of 4 bytes)
  auto v = load(x + 1 + arange<512>());
  store(y + arange<512>(), v);
}

// CHECK-LABEL: kernel shifted (shifted)
TILECC_KERNEL()
void shifted(TILECC_ALIGNED(16) const half* x, TILECC_ALIGNED(16) half* y) {
  // CHECK: load at line [[@LINE+1]]: 2 x f16 = 4 bytes per access (the address is only known to be a multiple of 4 bytes)
  auto v = load(x + (arange<512>() + 2));
  store(y + arange<512>(), v);
}

// CHECK-LABEL: kernel masked (masked)
// CHECK: load at line [[@LINE+6]]: 1 x f32 = 4 bytes per access (the mask is constant in runs of 1 along axis 0)
// CHECK-LABEL: kernel masked_aligned (masked)
// CHECK-NEXT: variant: when n is a multiple of 4
// CHECK: load at line [[@LINE+3]]: 4 x f32 = 16 bytes per access
TILECC_KERNEL()
void masked(TILECC_ALIGNED(16) const float* x, TILECC_ALIGNED(16) float* y, int n) {
  auto v = load(x + arange<512>(), arange<512>() < n, 0.0f);
  store(y + arange<512>(), v);
}

// CHECK-LABEL: kernel strided (strided)
TILECC_KERNEL()
void strided(TILECC_ALIGNED(16) const float* x, TILECC_ALIGNED(16) float* y) {
  // CHECK: load at line [[@LINE+1]]: 1 x f32 = 4 bytes per access (pointers are contiguous in runs of 1 along axis 0)
  auto v = load(x + arange<512>() * 2);
  store(y + arange<512>(), v);
}

// Contiguous down the columns: axis 0 becomes the fastest.
// CHECK-LABEL: kernel columns (columns)
// CHECK: L{{[0-9]}} = compose<spatial<1, 4>, spatial<16, 2>, repeat<4, 1>> (lanes fastest along dim 0)
TILECC_KERNEL()
void columns(TILECC_ALIGNED(16) const float* x, TILECC_ALIGNED(16) float* y) {
  // CHECK: load at line [[@LINE+1]]: 4 x f32 = 16 bytes per access
  auto v = load(x + col(arange<64>()) + row(arange<32>()) * 64);
  store(y + col(arange<64>()) + row(arange<32>()) * 64, v);
}

// Unknown pointers: the general kernel moves one element per access; the variant, picked
// when the pointers are aligned and the length is a multiple of 8, moves 16 bytes.
// CHECK-LABEL: kernel unknown (unknown)
// CHECK: load at line [[@LINE+7]]: 1 x f16 = 2 bytes per access (the address is only known to be a multiple of 2 bytes; the mask is constant in runs of 1 along axis 0)
// CHECK-LABEL: kernel unknown_aligned (unknown)
// CHECK-NEXT: variant: when x is aligned to 16, y is aligned to 16, n is a multiple of 8
// CHECK: load at line [[@LINE+4]]: 8 x f16 = 16 bytes per access
TILECC_KERNEL()
void unknown(const half* x, half* y, int n) {
  auto offs = program_id(0) * 1024 + arange<1024>();
  auto v = load(x + offs, offs < n, 0.0f);
  store(y + offs, v, offs < n);
}

// Each integer is assumed divisible by the least of 16, 8, 4, 2 that keeps every width: 16
// bytes are 16 one-byte elements, so a length used for both int8 and f16 data stays a multiple
// of 16 (an f16 access alone needs 8, see `unknown`).
// CHECK-LABEL: kernel bytes_aligned (bytes)
// CHECK-NEXT: variant: when x is aligned to 16, y is aligned to 16, h is aligned to 16, n is a multiple of 16, m is a multiple of 8
// CHECK: load at line [[@LINE+5]]: 16 x i8 = 16 bytes per access
// CHECK: load at line [[@LINE+5]]: 8 x f16 = 16 bytes per access
TILECC_KERNEL()
void bytes(const int8_t* x, int8_t* y, half* h, int n, int m) {
  auto offs = program_id(0) * 1024 + arange<1024>();
  store(y + offs, load(x + offs, offs < n, 0), offs < n);
  store(h + offs, load(h + m + offs, offs < m, 0.0f), offs < m);
}

// Atomics on 16-bit floats whose old values go unused add pairs (one 32-bit atomic on __half2):
// the variant asks n to be even, and no more.
// CHECK-LABEL: kernel half_sums (half_sums)
// CHECK: atomic_add at line [[@LINE+8]]: 1 x f16 = 2 bytes per access
// CHECK-LABEL: kernel half_sums_aligned (half_sums)
// CHECK-NEXT: variant: when x is aligned to 16, s is aligned to 16, n is a multiple of 2
// CHECK: atomic_add at line [[@LINE+5]]: 2 x f16 = 4 bytes per access (the mask is constant in runs of 2 along axis 0; 16-bit float atomics add pairs at most)
TILECC_KERNEL()
void half_sums(const half* x, half* s, int n) {
  auto offs = arange<256>();
  auto v = load(x + program_id(0) * 256 + offs);
  atomic_add(s + offs, v, offs < n);
}
