// TMA's im2col mode on sm_90a: a convolution's input gathered the way users write it (row i of
// the tile is output pixel m = m0 + i, taken apart by `/` and `%`, moved by the tap's offsets,
// masked to the image) becomes one im2col copy per 64 channels, the tap's offsets + 64 passed to
// the instruction; the weights `w + f * K + tap * C + c0 + j` with `c0 + j < C` are a 3-d box
// (the tap a middle axis of stride C). Offsets and channel starts computed in the loop are
// checked for every iteration by a loop before the pipeline, never with a wgmma in flight.
// ARGS: --arch sm_80,sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// 2-d (NHWC), the digits spelt (m / W) % H and (m / W) / H.
// CHECK-LABEL: ---- conv2d -> conv2d_sm90a_tma ----
// CHECK: // TMA: descriptors a_desc (im2col mode), b_desc (128B swizzle, zero fill)
// CHECK: //   a_ring at 0, 49152 bytes ([128][64] f16, 128-byte rows, 128B swizzle, 3 stages of 16384 bytes): pixels copied by TMA in im2col mode at line {{[0-9]+}}
// CHECK: //   b_ring at 49152, 49152 bytes ([128][64] f16, 128-byte rows, 128B swizzle, 3 stages of 16384 bytes): box copied by TMA at line {{[0-9]+}}
// CHECK: const int kb_rem = rm_mul % wd;
// CHECK: for (int kb = 0; kb < kb_mul; ++kb) {
// CHECK: if (!{{[a-z_0-9]+}}) __trap();  // a filter offset outside -64 .. 32703 (TMA im2col offsets are 16 bits)
// CHECK: tilecc::tma_load_im2col_4d(a_ring_slot, &a_desc, kb_full, {{[a-z_0-9]+}}, kb_sub, kb_sub_1, kb_div_1, {{[a-z_0-9]+}}, {{[a-z_0-9]+}});
// CHECK: tilecc::tma_load_3d(b_ring_slot, &b_desc, kb_full, {{[a-z_0-9]+}}, {{tap[_0-9]*}}, rn_mul);
// CHECK-NOT: __trap();  // a filter offset
// CHECK: tilecc::wgmma_wait<1>();
// CHECK: tilecc::tma_load_im2col_4d(
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void conv2d(const half* x, const half* w, half* y, int n, int h, int wd, TILECC_MULTIPLE_OF(16) int c, int f) {
  const int M = n * h * wd, K = 9 * c;
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto img = rm / wd / h;
  auto oy = rm / wd % h;
  auto ox = rm % wd;
  auto acc = zeros<float, 128, 128>();
  const int blocks = cdiv(c, 64);
  for (int kb = 0; kb < 9 * blocks; ++kb) {
    const int tap = kb / blocks, c0 = (kb % blocks) * 64;
    auto iy = oy + (tap / 3 - 1);
    auto ix = ox + (tap % 3 - 1);
    auto pixel_ok = (rm < M) & (iy >= 0) & (iy < h) & (ix >= 0) & (ix < wd);
    auto ch = c0 + arange<64>();
    auto a = load(x + col(cast<int64_t>((img * h + iy) * wd + ix) * c) + row(ch), col(pixel_ok) & row(ch < c), 0.0f);
    auto b = load(w + cast<int64_t>(row(rn)) * K + col(tap * c + ch), col(ch < c) & row(rn < f), 0.0f);
    acc = dot(a, b, acc);
  }
  store(y + cast<int64_t>(col(rm)) * f + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < f));
}

// 1-d (NWC), a 5-tap filter: a 3-d im2col copy with one offset.
// CHECK-LABEL: ---- conv1d -> conv1d_sm90a_tma ----
// CHECK: tilecc::tma_load_im2col_3d(
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void conv1d(const half* x, const half* w, half* y, int n, int len, TILECC_MULTIPLE_OF(16) int c, int f) {
  const int M = n * len, K = 5 * c;
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto pos = rm % len;
  auto acc = zeros<float, 64, 64>();
  const int blocks = cdiv(c, 64);
  for (int kb = 0; kb < 5 * blocks; ++kb) {
    const int tap = kb / blocks, c0 = (kb % blocks) * 64;
    auto ip = pos + (tap - 2);
    auto ch = c0 + arange<64>();
    auto a = load(x + col(cast<int64_t>(rm + (tap - 2)) * c) + row(ch), col((rm < M) & (ip >= 0) & (ip < len)) & row(ch < c), 0.0f);
    auto b = load(w + cast<int64_t>(row(rn)) * K + col(tap * c + ch), col(ch < c) & row(rn < f), 0.0f);
    acc = dot(a, b, acc);
  }
  store(y + cast<int64_t>(col(rm)) * f + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < f));
}

// Without the upper bound on x the pointers read the next row's pixels, which TMA would fill with
// zeros: no im2col copy (the loop stays on cp.async).
// CHECK-LABEL: ---- half_masked -> half_masked_sm90a_aligned ----
// CHECK-NOT: im2col
// The launchers encode the descriptors (windows shifted by 64; 128 pixels of 64 channels).
// CHECK-LABEL: cudaError_t launch_conv2d(
// CHECK: tilecc::tensor_map_im2col(tilecc_map_0_0, x, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, tilecc_dims_0_0, tilecc_strides_0_0, 128u, 64u, 64, 128);
// CHECK-LABEL: cudaError_t launch_conv1d(
// CHECK: tilecc::tensor_map_im2col(tilecc_map_0_0, x, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3,
// CHECK-LABEL: cudaError_t launch_half_masked(
// CHECK-NOT: im2col
// CHECK: return
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void half_masked(const half* x, const half* w, half* y, int n, int h, int wd, TILECC_MULTIPLE_OF(16) int c, int f) {
  const int M = n * h * wd, K = 9 * c;
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto oy = rm % (h * wd) / wd;
  auto ox = rm % wd;
  auto acc = zeros<float, 64, 64>();
  const int blocks = cdiv(c, 64);
  for (int kb = 0; kb < 9 * blocks; ++kb) {
    const int tap = kb / blocks, c0 = (kb % blocks) * 64;
    auto iy = oy + (tap / 3 - 1);
    auto ix = ox + (tap % 3 - 1);
    auto ch = c0 + arange<64>();
    auto ok = (rm < M) & (iy >= 0) & (iy < h) & (ix >= 0);
    auto a = load(x + col(cast<int64_t>(rm + (tap / 3 - 1) * wd + tap % 3 - 1) * c) + row(ch), col(ok) & row(ch < c), 0.0f);
    auto b = load(w + cast<int64_t>(row(rn)) * K + col(tap * c + ch), col(ch < c) & row(rn < f), 0.0f);
    acc = dot(a, b, acc);
  }
  store(y + cast<int64_t>(col(rm)) * f + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < f));
}
