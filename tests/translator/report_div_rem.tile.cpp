// The axis analysis through / and %: for a non-negative run of consecutive values starting at
// a multiple of 16, and a divisor promised a multiple of 16, k % c stays consecutive and k / c
// constant over 16 values (an implicit GEMM's channel and tap), so the gather moves 16 bytes.
// A dividend that may be negative keeps no runs (C++ rounds quotients toward zero, so a run
// of negative values splits at a different place): one element per access in the general
// kernel; the specialised variant assumes it non-negative where its launcher's bound over the
// grid proves it. x >> 4 is constant over 16 values as x / 16 is.
// ARGS: --emit=report -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void gather(const half* x, half* y, TILECC_MULTIPLE_OF(16) int c, int k0) {
  auto k = program_id(0) * 64 + arange<64>();
  auto v = load(x + (k / c) * (2 * c) + k % c);  // runs of 16: tap k / c, channel k % c
  store(y + k, v);
  auto kk = k - 64 * k0;  // k0 may make it negative
  store(y + 4096 + k, load(x + kk % c));
  store(y + 8192 + k, load(x + (k >> 4) * 32 + (k & 15)));
}
// CHECK-LABEL: kernel gather (gather)
// CHECK: load at line [[@LINE-4]]: 1 x f16 = 2 bytes per access (pointers are contiguous in runs of 1 along axis 0
// CHECK-LABEL: kernel gather_aligned (gather)
// CHECK-NEXT: variant: when x is aligned to 16, y is aligned to 16 and in every program of the grid program_id(0) * 64 + arange<64>() - 64 * k0 >= 0
// CHECK-NEXT: checked by the launcher over the grid (line [[@LINE-8]], else another variant runs): program_id(0) * 64 + arange<64>() - 64 * k0 >= 0
// CHECK: load at line [[@LINE-11]]: 8 x f16 = 16 bytes per access
// CHECK: load at line [[@LINE-9]]: 8 x f16 = 16 bytes per access
// CHECK: load at line [[@LINE-9]]: 8 x f16 = 16 bytes per access

// A block index whose sign the analysis cannot prove (a quotient by a `min` of a difference, as
// a grouped program order computes it): the rows keep their runs through `% n` on the assumption
// that they are non-negative, which the launcher bounds over the grid (never a trap).
TILECC_KERNEL(num_warps = 4)
void wrapped_rows(const half* x, half* y, TILECC_MULTIPLE_OF(16) int n, int groups) {
  const int pid = program_id(0);
  const int block = pid / min(groups - pid, 8);
  auto rows = (block * 64 + arange<64>()) % n;
  store(y + pid * 64 + arange<64>(), load(x + rows));
}
// CHECK-LABEL: kernel wrapped_rows (wrapped_rows)
// CHECK-NOT: checked per program
// CHECK: load at line [[@LINE-4]]: 1 x f16 = 2 bytes per access
// CHECK-LABEL: kernel wrapped_rows_aligned (wrapped_rows)
// CHECK: checked by the launcher over the grid (line [[@LINE-7]], else another variant runs): program_id(0) / min(groups - program_id(0), 8) * 64 + arange<64>() >= 0; vector accesses assume it
// CHECK-NOT: checked per program
// CHECK: load at line [[@LINE-8]]: 8 x f16 = 16 bytes per access

// Values of the arguments alone are bounded by the launcher as well (an offset may be
// legitimately negative: then the general kernel runs); values of memory are never assumed:
// their rows move one element at a time.
TILECC_KERNEL(num_warps = 4)
void offset_rows(const half* x, half* y, const int* starts, TILECC_MULTIPLE_OF(16) int n, int k0) {
  const int off = (8 - k0) * 64;
  store(y + arange<64>(), load(x + (off + arange<64>()) % n));
  const int start = load(starts + program_id(0));
  store(y + 64 + arange<64>(), load(x + (start + arange<64>()) % n));
}
// CHECK-LABEL: kernel offset_rows_aligned (offset_rows)
// CHECK: checked by the launcher over the grid (line [[@LINE-5]], else another variant runs): (8 - k0) * 64 + arange<64>() >= 0
// CHECK-NOT: checked
// CHECK: load at line [[@LINE-7]]: 8 x f16 = 16 bytes per access
// CHECK: load at line [[@LINE-6]]: 1 x f16 = 2 bytes per access

// An integer parameter in a dividend (an offset): a specialised variant assumes the dividend
// >= 0 where that widens an access, and its launcher checks it over the grid (falling back to
// the general kernel), as it checks alignment; through a named value of the arguments too.
TILECC_KERNEL(num_warps = 4)
void offset_param(const half* x, half* y, TILECC_MULTIPLE_OF(16) int c, int k0) {
  auto k = program_id(0) * 64 + arange<64>();
  store(y + k, load(x + (k0 * 64 + k) % c));
  const int off = k0 * 32 + 16;
  store(y + 8192 + k, load(x + (off + k) % c));
}
// CHECK-LABEL: kernel offset_param (offset_param)
// CHECK: load at line [[@LINE-5]]: 1 x f16 = 2 bytes per access
// CHECK: load at line [[@LINE-4]]: 1 x f16 = 2 bytes per access
// CHECK-LABEL: kernel offset_param_aligned (offset_param)
// CHECK-NEXT: variant: when x is aligned to 16, y is aligned to 16 and in every program of the grid k0 * 64 + (program_id(0) * 64 + arange<64>()) >= 0, k0 * 32 + 16 + (program_id(0) * 64 + arange<64>()) >= 0
// CHECK-NOT: checked per program
// CHECK: load at line [[@LINE-10]]: 8 x f16 = 16 bytes per access
// CHECK: load at line [[@LINE-9]]: 8 x f16 = 16 bytes per access

// A periodic halo whose only gain is the dividend's sign (every other fact is promised): a
// variant of its own, chosen by the launcher's bound alone (radius <= n for every program).
TILECC_KERNEL(num_warps = 4)
void halo(TILECC_ALIGNED(16) const float* x, TILECC_ALIGNED(16) float* y, TILECC_MULTIPLE_OF(16) int n, TILECC_MULTIPLE_OF(16) int radius) {
  const int start = program_id(0) * 256 - radius;
  auto v = load(x + (start + arange<256>() + n) % n);
  store(y + program_id(0) * 256 + arange<256>(), v, program_id(0) * 256 + arange<256>() < n);
}
// CHECK-LABEL: kernel halo (halo)
// CHECK: load at line [[@LINE-4]]: 1 x f32 = 4 bytes per access
// CHECK-LABEL: kernel halo_aligned (halo)
// CHECK-NEXT: variant: when in every program of the grid program_id(0) * 256 - radius + arange<256>() + n >= 0
// CHECK: load at line [[@LINE-7]]: 4 x f32 = 16 bytes per access
