// --emit=report: each dot's instruction — wgmma with its shape and where A comes from, or
// mma.sync / CUDA-core FMA with the reason it is not wgmma on sm_90a (where nothing stops it,
// sm_90a has a kernel of its own) — and what warp specialisation did.
// ARGS: --emit=report --arch sm_80,sm_90a
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel chained (chained), 8 warps, for sm_80
// CHECK: dots:
// CHECK-NEXT: dot at line 35: mma.sync
// CHECK-NEXT: dot at line 36: mma.sync
// CHECK-LABEL: kernel chained_sm90a (chained), 8 warps, for sm_90a
// CHECK: dots:
// CHECK-NEXT: dot at line 35: wgmma m64n64k16, A from shared memory
// CHECK-NEXT: dot at line 36: wgmma m64n64k16, A from registers
// CHECK-LABEL: kernel chained_sm90a_tma (chained), 8 warps, for sm_90a
// CHECK-NEXT: variant: when
// CHECK-NEXT: warp-specialised: a producer warp group of 4 warps issues the TMA copies
// CHECK-NOT: persistent
// CHECK-LABEL: kernel two_warps (two_warps), 2 warps
// CHECK: dot at line 46: mma.sync; not wgmma on sm_90a: num_warps = 2 is no whole warp group
// CHECK-LABEL: kernel tf32 (tf32), 4 warps
// CHECK: dot at line 54: mma.sync; not wgmma on sm_90a: operands are f32, not f16 or bf16
// CHECK-LABEL: kernel short_m (short_m), 4 warps
// CHECK: dot at line 63: mma.sync; not wgmma on sm_90a: M = 32 is not a multiple of 64 rows (a warp group's block)

TILECC_KERNEL(num_warps = 8, num_stages = 2, warp_specialize = true)
void chained(const half* q, const half* k, const half* v, float* out, int n) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rd = arange<64>();
  auto q_tile = load(q + cast<int64_t>(col(rm)) * 64 + row(rd), col(rm) < n, 0.0f);
  auto acc = zeros<float, 128, 64>();
  for (int t = 0; t < n; t += 64) {
    auto rn = t + arange<64>();
    auto s = dot(q_tile, trans(load(k + cast<int64_t>(col(rn)) * 64 + row(rd), col(rn) < n, 0.0f)));
    acc = dot(cast<half>(s), load(v + cast<int64_t>(col(rn)) * 64 + row(rd), col(rn) < n, 0.0f), acc);
  }
  store(out + cast<int64_t>(col(rm)) * 64 + row(rd), acc, col(rm) < n);
}

TILECC_KERNEL(num_warps = 2)
void two_warps(const half* a, const half* b, float* c) {
  auto r = arange<32>();
  auto x = load(a + col(r) * 32 + row(r));
  auto y = load(b + col(r) * 32 + row(r));
  store(c + col(r) * 32 + row(r), dot(x, y));
}

TILECC_KERNEL(num_warps = 4)
void tf32(const float* a, const float* b, float* c) {
  auto r = arange<64>();
  auto x = load(a + col(r) * 64 + row(r));
  auto y = load(b + col(r) * 64 + row(r));
  store(c + col(r) * 64 + row(r), dot<precision::tf32>(x, y));
}

TILECC_KERNEL(num_warps = 4)
void short_m(const half* a, const half* b, float* c) {
  auto r = arange<32>();
  auto s = arange<64>();
  auto x = load(a + col(r) * 64 + row(s));
  auto y = load(b + col(s) * 64 + row(s));
  store(c + col(r) * 64 + row(s), dot(x, y));
}

// Both operands loaded one element at a time in the loop (strides are run-time values: nothing
// wider is proven in the general variant): mma.sync on sm_90a too, so the sm_80 kernel serves
// both; the variants with unit strides proven have wide loads and wgmma.
// CHECK-LABEL: kernel strided_gemm (strided_gemm), 8 warps, for sm_80
// CHECK: dot at line [[@LINE+13]]: mma.sync; not wgmma on sm_90a: both operands are loaded one element at a time every iteration (no wider access proven): the loads bound it, and mma.sync measured 1.06-1.38x faster on such GEMMs
// CHECK-NOT: kernel strided_gemm_sm90a (
// CHECK: kernel strided_gemm_sm90a_aligned (strided_gemm), 8 warps, for sm_90a
// CHECK: dot at line [[@LINE+10]]: wgmma m64n128k16, A from shared memory
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void strided_gemm(const half* a, const half* b, float* c, int M, int N, int K, int64_t sam, int64_t sak, int64_t sbk, int64_t sbn) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto x = load(a + cast<int64_t>(col(rm)) * sam + cast<int64_t>(k + row(rk)) * sak, (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto y = load(b + cast<int64_t>(k + col(rk)) * sbk + cast<int64_t>(row(rn)) * sbn, (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// M = 64 with 8 warps: two warp groups for one 64-row block (warp groups split M only).
TILECC_KERNEL(num_warps = 8)
void m64_two_groups(const half* a, const half* b, float* c) {
  auto r = arange<64>();
  auto x = load(a + col(r) * 64 + row(r));
  auto y = load(b + col(r) * 64 + row(r));
  store(c + col(r) * 64 + row(r), dot(x, y));
}
// CHECK-LABEL: kernel m64_two_groups (m64_two_groups), 8 warps
// CHECK: mma.sync; not wgmma on sm_90a: M = 64 rows are 1 block(s) of 64 for 2 warp groups (num_warps = 8), and warp groups split M only: M a multiple of 128, or num_warps = 4, would take wgmma
