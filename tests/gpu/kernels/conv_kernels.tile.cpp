// A 3x3 convolution (stride 1, padding 1) as an implicit GEMM, written the way users write it:
// NHWC input x[n][h][w][c], weights w[f][3][3][c], output y[n][h][w][f]. Output pixels are the
// GEMM's rows, filters its columns, and (tap, channel) = (k / c, k % c) its reduction index:
// the input operand is gathered through `/` and `%`. With c promised a multiple of 16, the axis
// analysis proves runs of 16 consecutive channels per tap, so the gather moves 16 bytes per
// access and is pipelined through cp.async. tests/gpu/gpu_conv.cpp checks it against the host
// twin; the benchmark times it against cuDNN.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BM, int BN, int BK, int STAGES>
TILECC_KERNEL(num_warps = 8, num_stages = STAGES)
void conv3x3(const half* x, const half* w, half* y, int n, int h, int wd, TILECC_MULTIPLE_OF(16) int c, int f) {
  const int M = n * h * wd, K = 9 * c;
  auto rm = program_id(0) * BM + arange<BM>();  // output pixels
  auto rn = program_id(1) * BN + arange<BN>();  // filters
  auto img = rm / (h * wd);
  auto oy = rm % (h * wd) / wd;
  auto ox = rm % wd;
  auto acc = zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto k = k0 + arange<BK>();
    auto tap = k / c;
    auto ch = k % c;
    auto iy = col(oy) + row(tap / 3) - 1;
    auto ix = col(ox) + row(tap % 3) - 1;
    auto inside = (col(rm) < M) & (iy >= 0) & (iy < h) & (ix >= 0) & (ix < wd) & row(k < K);
    auto a = load(x + cast<int64_t>((col(img) * h + iy) * wd + ix) * c + row(ch), inside, 0.0f);
    auto b = load(w + cast<int64_t>(row(rn)) * K + col(k), (col(k) < K) & (row(rn) < f), 0.0f);
    acc = dot(a, b, acc);
  }
  store(y + cast<int64_t>(col(rm)) * f + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < f));
}

template void conv3x3<128, 128, 32, 3>(const half*, const half*, half*, int, int, int, int, int);

// The same convolution with the reduction loop over (tap, channel block): the tap and the block's
// first channel are scalars of each iteration, so a row of the input operand is one pixel's
// channels (per-row address arithmetic, contiguous along the channels) and its mask is a
// per-row test; the channel mask keeps channel counts that are not multiples of BK exact. On
// sm_90a the input rows are copied by TMA in im2col mode (analysis/Im2colAccess.h: the pixel
// digits, the tap's offsets and the padding mask are what the hardware walks) and the weights as
// a 3-d box (the tap a middle axis of stride c).
template <int BM, int BN, int BK, int STAGES>
TILECC_KERNEL(num_warps = 8, num_stages = STAGES)
void conv3x3_taps(const half* x, const half* w, half* y, int n, int h, int wd, TILECC_MULTIPLE_OF(16) int c, int f) {
  const int M = n * h * wd, K = 9 * c;
  auto rm = program_id(0) * BM + arange<BM>();  // output pixels
  auto rn = program_id(1) * BN + arange<BN>();  // filters
  auto img = rm / (h * wd);
  auto oy = rm % (h * wd) / wd;
  auto ox = rm % wd;
  auto acc = zeros<float, BM, BN>();
  const int blocks = cdiv(c, BK);
  for (int kb = 0; kb < 9 * blocks; ++kb) {
    const int tap = kb / blocks, c0 = (kb % blocks) * BK;
    auto iy = oy + (tap / 3 - 1);
    auto ix = ox + (tap % 3 - 1);
    auto pixel_ok = (rm < M) & (iy >= 0) & (iy < h) & (ix >= 0) & (ix < wd);
    auto ch = c0 + arange<BK>();
    auto a = load(x + col(cast<int64_t>((img * h + iy) * wd + ix) * c) + row(ch), col(pixel_ok) & row(ch < c), 0.0f);
    auto b = load(w + cast<int64_t>(row(rn)) * K + col(tap * c + ch), col(ch < c) & row(rn < f), 0.0f);
    acc = dot(a, b, acc);
  }
  store(y + cast<int64_t>(col(rm)) * f + row(rn), cast<half>(acc), (col(rm) < M) & (row(rn) < f));
}

template void conv3x3_taps<128, 128, 64, 3>(const half*, const half*, half*, int, int, int, int, int);
// 256 pixels per program: three stages of 48 KiB keep a program alone on its SM, so on sm_90a
// the loop is warp-specialised by default (a producer warp issues the im2col and weight copies).
template void conv3x3_taps<256, 128, 64, 3>(const half*, const half*, half*, int, int, int, int, int);

// Index arithmetic through / and %, & and >> (tests/translator/report_div_rem.tile.cpp shows the
// access widths): the vectorised gathers must read what the host twin reads, and a dividend
// that goes negative must not be vectorised wrongly.
TILECC_KERNEL(num_warps = 4)
void gather_div_rem(const half* x, half* y, TILECC_MULTIPLE_OF(16) int c, int k0) {
  auto k = program_id(0) * 64 + arange<64>();
  store(y + k, load(x + (k / c) * (2 * c) + k % c));
  auto kk = k - 64 * k0;
  store(y + 4096 + k, load(x + 4096 + kk % c));
  store(y + 8192 + k, load(x + (k >> 4) * 32 + (k & 15)));
  // An offset of the arguments alone, negative for k0 > 8 (a valid program): no variant may
  // assume it non-negative (and trap, or vectorise wrongly).
  const int off = (8 - k0) * 64;
  store(y + 12288 + k, load(x + 8192 + (off + k) % c));
  // An offset the launcher checks (k0 >= 0 picks the 16-byte variant; a negative one, the
  // general kernel).
  store(y + 16384 + k, load(x + 4096 + (k0 * 64 + k) % c));
}

// A block index moved back by an argument (a periodic halo, negative in program 0 for back > 0):
// the launcher bounds the dividend over the grid and takes the 16-byte variant where
// c - back >= 0, else the general kernel (C++'s negative remainders, read before x + 64); never
// a trap.
TILECC_KERNEL(num_warps = 4)
void halo_rows(const half* x, half* y, TILECC_MULTIPLE_OF(16) int c, int back) {
  const int start = program_id(0) * 64 - back;
  store(y + program_id(0) * 64 + arange<64>(), load(x + 64 + (start + arange<64>() + c) % c));
}
