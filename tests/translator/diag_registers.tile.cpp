// Tiles beyond a thread's registers: a located warning with the estimate, the tiles live at
// the peak and advice. A 128x128 float tile on one warp is 512 registers per thread for the
// loaded values alone; the offsets, affine in the tile indices, hold none of their own (nvcc
// keeps one base and folds each register's constant into its uses). (diag_registers_refused:
// far beyond, an error.)
// ARGS: --emit=report -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int M, int N, int W>
TILECC_KERNEL(num_warps = W)
void wide(const float* x, float* y) {
  auto offs = col(arange<M>()) * N + row(arange<N>());
  auto v = load(x + offs);
  store(y + offs, v * 2.0f + 1.0f);
}
// DIAG: diag_registers.tile.cpp:[[@LINE-5]]:6: warning: kernel 'wide<128, 128, 1>' needs about 512 registers per thread for tiles (at line [[@LINE-3]]: v 512), more than the 255 a thread has: the rest spill to local memory; use more warps (num_warps = 1 now, up to 32) or smaller tiles
// DIAG-NOT: wide<128, 128, 8>
template void wide<128, 128, 1>(const float*, float*);
template void wide<128, 128, 8>(const float*, float*);

// CHECK-LABEL: kernel wide_128_128_1 (wide<128, 128, 1>), 1 warps
// CHECK: registers: about 512 registers per thread for tiles
// CHECK-LABEL: kernel wide_128_128_8 (wide<128, 128, 8>), 8 warps
// CHECK: registers: about 64 registers per thread for tiles

// Offsets through `%` are values of their own: counted (64 registers).
TILECC_KERNEL(num_warps = 1)
void wrapped(const float* x, float* y, int n) {
  auto offs = (col(arange<32>()) * 64 + row(arange<64>())) % n;
  store(y + offs, load(x + offs));
}
// CHECK-LABEL: kernel wrapped (wrapped), 1 warps
// CHECK: registers: about 64 registers per thread for tiles (at line [[@LINE-4]]: offs 64)

// The K loop of a 128x256 GEMM tile, for mm and alpha_beta below (a helper is inlined: their IR
// is the same as with the loop written in each).
tile<float, 128, 256> gemm_128x256(const half* a, const half* b, int K) {
  auto rm = arange<128>();
  auto rn = arange<256>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 256>();
  for (int k = 0; k < K; k += 64) {
    auto x = load(a + col(rm) * K + row(k + rk), row(k + rk) < K, 0.0f);
    auto y = load(b + col(k + rk) * 256 + row(rn), col(k + rk) < K, 0.0f);
    acc = dot(x, y, acc);
  }
  return acc;
}

// A dot accumulates in place: the loop's accumulator, the dot's result, the wgmma wait's and the
// loop's results share one set of registers (128 per thread here, not 2-4 times that), and a
// tile of one value (the splat-derived offsets of pipelined loads) is one scalar. No warning.
// DIAG-NOT: mm
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void mm(TILECC_ALIGNED(16) const half* a, TILECC_ALIGNED(16) const half* b, float* c, TILECC_MULTIPLE_OF(16) int K) {
  store(c + col(arange<128>()) * 256 + row(arange<256>()), gemm_128x256(a, b, K));
}
// CHECK-LABEL: kernel mm (mm), 8 warps
// CHECK: registers: about {{1[0-9][0-9]}} registers per thread for tiles (at line

// A narrowing conversion of a tile that dies there takes its registers (two halves packed into
// the registers of two consumed floats): in the general variant 64 at the peak, not 96 with the
// halves beside the floats.
TILECC_KERNEL(num_warps = 8)
void narrowing(const float* x, half* y) {
  auto offs = col(arange<64>()) * 256 + row(arange<256>());
  store(y + offs, cast<half>(load(x + offs)));
}
// CHECK-LABEL: kernel narrowing (narrowing), 8 warps
// CHECK: registers: about 64 registers per thread for tiles
// CHECK-LABEL: kernel narrowing_aligned (narrowing), 8 warps

// An if's results take the registers of what its branches yield: version-masks turns the
// masked select into an if whose result is the select's (or the loaded tile itself): 128 at the
// peak, not 192 with the if's result beside the select's.
TILECC_KERNEL(num_warps = 8)
void masked_max(const float* x, float* y, int n) {
  auto rows = arange<64>();
  auto cols = arange<256>();
  auto best = full<float, 64, 256>(-INFINITY);
  for (int s = 0; s < n; s += 256) {
    auto c = s + cols;
    auto v = load(x + col(rows) * n + row(c), row(c) < n, 0.0f);
    best = maximum(best, where(row(c) < n, v, -INFINITY));
  }
  store(y + col(rows) * 256 + row(cols), best);
}
// CHECK-LABEL: kernel masked_max (masked_max), 8 warps
// CHECK: select (line [[@LINE-5]]):
// CHECK: registers: about 128 registers per thread for tiles (at line [[@LINE-7]]: best 64, v 64)
// CHECK-LABEL: kernel masked_max_aligned (masked_max), 8 warps

// GEMM's `alpha * acc + beta * c` epilogue (c read back, then converted to float) at 128x256:
// the splats of alpha and beta between the conversion and its use hold no registers, so the
// expression is still computed element by element; the accumulator and the loaded c are what a
// thread holds (ptxas: 214-218 registers, no spills). It was counted as 320 (acc, c in float and in
// half), a spill warning for a kernel that spills nothing.
// DIAG-NOT: alpha_beta
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void alpha_beta(TILECC_ALIGNED(16) const half* a, TILECC_ALIGNED(16) const half* b, half* c, TILECC_MULTIPLE_OF(16) int K,
                float alpha, float beta) {
  auto acc = gemm_128x256(a, b, K);
  auto cp = c + col(arange<128>()) * 256 + row(arange<256>());
  auto old = cast<float>(load(cp));
  store(cp, cast<half>(alpha * acc + beta * old));
}
// CHECK-LABEL: kernel alpha_beta (alpha_beta), 8 warps
// CHECK: registers: about {{1[0-9][0-9]|2[0-4][0-9]}} registers per thread for tiles (at line

// Above 8 warps a program's threads share the SM's 65536 registers: with 16 warps a thread has
// 128, so three [256][128] float tiles (192 per thread) spill, and more warps would not help.
TILECC_KERNEL(num_warps = 16)
void sixteen_warps(const float* x, float* y) {
  auto offs = col(arange<256>()) * 128 + row(arange<128>());
  auto u = load(x + offs), v = load(x + offs + 32768), w = load(x + offs + 65536);
  store(y + offs, u * v + w);
}
// DIAG: diag_registers.tile.cpp:[[@LINE-5]]:6: warning: kernel 'sixteen_warps' needs about 192 registers per thread for tiles (at line [[@LINE-3]]: u 64, v 64, w 64), more than the 128 a thread has with num_warps = 16 (65536 in all): the rest spill to local memory; use smaller tiles
