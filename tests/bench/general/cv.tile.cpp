// Stencil-like kernels whose taps loop reads a tile per iteration (pooling, depthwise convolutions).
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

template <int BH, int BW>
TILECC_KERNEL(num_warps = 4)
void pool2d(const float* x, float* omax, float* oavg, int H, int W, int OH, int OW, int KS, int ST, int PD) {
  const int64_t nc = program_id(2);
  auto oh = program_id(1) * BH + arange<BH>();
  auto ow = program_id(0) * BW + arange<BW>();
  auto mx = full<float, BH, BW>(-INFINITY);
  auto sm = zeros<float, BH, BW>();
  auto cnt = zeros<int, BH, BW>();
  for (int kh = 0; kh < KS; ++kh) {
    auto ih = oh * ST - PD + kh;
    for (int kw = 0; kw < KS; ++kw) {
      auto iw = ow * ST - PD + kw;
      auto ok = col((ih >= 0) & (ih < H)) & row((iw >= 0) & (iw < W));
      auto v = load(x + nc * H * W + col(ih) * W + row(iw), ok, -INFINITY);
      mx = maximum(mx, v);
      sm += where(ok, v, 0.0f);
      cnt += cast<int>(ok);
    }
  }
  auto om = col(oh < OH) & row(ow < OW);
  store(omax + nc * OH * OW + col(oh) * OW + row(ow), mx, om);
  store(oavg + nc * OH * OW + col(oh) * OW + row(ow), sm / cast<float>(maximum(cnt, 1)), om);
}
template void pool2d<8, 32>(const float*, float*, float*, int, int, int, int, int, int, int);
template void pool2d<16, 64>(const float*, float*, float*, int, int, int, int, int, int, int);

template <int BC, int BL>
TILECC_KERNEL(num_warps = 4)
void causal_conv1d(const bfloat16* x, const float* w, const float* bias, bfloat16* out, int C, int L, int KW) {
  const int64_t b = program_id(2);
  auto c = program_id(1) * BC + arange<BC>();
  auto t = program_id(0) * BL + arange<BL>();
  auto acc = broadcast_to<BC, BL>(col(load(bias + c, c < C, 0.0f)));
  for (int j = 0; j < KW; ++j) {
    auto src = t - (KW - 1) + j;
    auto wj = load(w + c * KW + j, c < C, 0.0f);
    auto xv = load(x + (b * C + col(c)) * L + row(src), col(c < C) & row((src >= 0) & (src < L)), 0.0f);
    acc += col(wj) * cast<float>(xv);
  }
  store(out + (b * C + col(c)) * L + row(t), cast<bfloat16>(acc * sigmoid(acc)), col(c < C) & row(t < L));
}
template void causal_conv1d<16, 128>(const bfloat16*, const float*, const float*, bfloat16*, int, int, int);
template void causal_conv1d<4, 256>(const bfloat16*, const float*, const float*, bfloat16*, int, int, int);

// Depthwise 3x3 convolution, NCHW f16, padding 1, stride 1: one (n, c) plane per program row.
template <int BH, int BW>
TILECC_KERNEL(num_warps = 4)
void dwconv3x3(const half* x, const float* w, half* y, int C, int H, int W) {
  const int64_t nc = program_id(2);
  const int64_t ch = nc % C;
  auto oh = program_id(1) * BH + arange<BH>();
  auto ow = program_id(0) * BW + arange<BW>();
  auto acc = zeros<float, BH, BW>();
  for (int kh = 0; kh < 3; ++kh) {
    for (int kw = 0; kw < 3; ++kw) {
      auto ih = oh + (kh - 1);
      auto iw = ow + (kw - 1);
      auto ok = col((ih >= 0) & (ih < H)) & row((iw >= 0) & (iw < W));
      auto v = load(x + nc * H * W + col(ih) * W + row(iw), ok, 0.0f);
      const float wk = load(w + ch * 9 + kh * 3 + kw);
      acc += cast<float>(v) * wk;
    }
  }
  store(y + nc * H * W + col(oh) * W + row(ow), cast<half>(acc), col(oh < H) & row(ow < W));
}
template void dwconv3x3<16, 64>(const half*, const float*, half*, int, int, int);
template void dwconv3x3<8, 128>(const half*, const float*, half*, int, int, int);
