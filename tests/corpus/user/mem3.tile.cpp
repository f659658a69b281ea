// Memory-bound and data-movement kernels (third user-style set, tests/corpus/user): pooling, causal depthwise convolution,
// fused residual/dropout/layernorm, padded transpose, rank-3 tiles, several loops in a row,
// embedding bags, index_select, GeGLU.
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// 23. 2-D max and average pooling (NCHW, fp32), kernel KS x KS, stride ST, padding PD; average
//     without the padding (count_include_pad = false). Nested tap loops with run-time trip counts.
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
template void pool2d<1, 128>(const float*, float*, float*, int, int, int, int, int, int, int);

// 24. Causal depthwise 1-D convolution (Mamba's causal_conv1d): x bf16 [B][C][L], w fp32 [C][KW],
//     out[b, c, t] = silu(bias[c] + sum_j w[c, j] * x[b, c, t - (KW - 1) + j]), taps in a loop.
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

// 25. Fused: h = x + dropout(y) * (1 / (1 - p)) + residual (keep mask uint8), stores h (the new
//     residual) and LayerNorm(h) * gamma + beta, bf16, one row per program (N <= BLOCK).
template <int BLOCK, int WARPS>
TILECC_KERNEL(num_warps = WARPS)
void add_dropout_ln(const bfloat16* x, const bfloat16* y, const uint8_t* keep, const bfloat16* res, const bfloat16* gamma,
                    const bfloat16* beta, bfloat16* hout, bfloat16* out, int N, float p, float eps) {
  const int64_t r = program_id(0);
  auto c = arange<BLOCK>();
  auto m = c < N;
  auto xv = cast<float>(load(x + r * N + c, m, 0.0f));
  auto yv = cast<float>(load(y + r * N + c, m, 0.0f));
  auto kv = load(keep + r * N + c, m, uint8_t{0}) != uint8_t{0};
  auto rv = cast<float>(load(res + r * N + c, m, 0.0f));
  auto h = xv + where(kv, yv * (1.0f / (1.0f - p)), 0.0f) + rv;
  auto hb = cast<bfloat16>(h);
  store(hout + r * N + c, hb, m);
  auto hf = cast<float>(hb);
  const float mean = sum(hf) / N;
  auto d = where(m, hf - mean, 0.0f);
  const float rstd = 1.0f / std::sqrt(sum(d * d) / N + eps);
  auto g = cast<float>(load(gamma + c, m, 0.0f));
  auto bt = cast<float>(load(beta + c, m, 0.0f));
  store(out + r * N + c, cast<bfloat16>(d * rstd * g + bt), m);
}
template void add_dropout_ln<256, 2>(const bfloat16*, const bfloat16*, const uint8_t*, const bfloat16*, const bfloat16*,
                                     const bfloat16*, bfloat16*, bfloat16*, int, float, float);
template void add_dropout_ln<8192, 16>(const bfloat16*, const bfloat16*, const uint8_t*, const bfloat16*, const bfloat16*,
                                       const bfloat16*, bfloat16*, bfloat16*, int, float, float);

// 26. Transpose into a padded destination: out[N][ldo] (ldo >= M) = in[M][N]ᵀ, the pad columns
//     [M, ldo) written with zeros; half.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void transpose_pad(const half* in, half* out, int M, int N, int ldo) {
  auto om = program_id(0) * BM + arange<BM>();   // output columns (input rows)
  auto on = program_id(1) * BN + arange<BN>();   // output rows (input columns)
  auto t = load(in + cast<int64_t>(col(om)) * N + row(on), col(om < M) & row(on < N), 0.0f);   // [BM, BN]
  auto tt = trans(t);                                                                          // [BN, BM]
  store(out + cast<int64_t>(col(on)) * ldo + row(om), tt, col(on < N) & row(om < ldo));
}
template void transpose_pad<64, 32>(const half*, half*, int, int, int);
template void transpose_pad<16, 128>(const half*, half*, int, int, int);

// 27. Rank-3 tiles: x [A][B][C] fp32 (strides int64 parameters) -> out [C][A][B] (a permute) and
//     the sum over B -> s [A][C].
template <int TA, int TB, int TC>
TILECC_KERNEL(num_warps = 4)
void permute3(const float* x, float* out, float* s, int A, int B, int C, int64_t sa, int64_t sb) {
  auto ia = program_id(0) * TA + arange<TA>();
  auto ib = arange<TB>();
  auto ic = program_id(1) * TC + arange<TC>();
  auto a3 = expand_dims<1>(col(ia));                 // [TA, 1, 1]
  auto b3 = expand_dims<0>(col(ib));                 // [1, TB, 1]
  auto c3 = expand_dims<0>(row(ic));                 // [1, 1, TC]
  auto mask = (a3 < A) & (b3 < B) & (c3 < C);
  auto v = load(x + a3 * sa + b3 * sb + c3, mask, 0.0f);
  store(out + (cast<int64_t>(c3) * A + a3) * B + b3, v * 2.0f, mask);
  auto red = sum<1>(v);                               // [TA, TC]
  store(s + cast<int64_t>(col(ia)) * C + row(ic), red, col(ia < A) & row(ic < C));
}
template void permute3<4, 16, 32>(const float*, float*, float*, int, int, int, int64_t, int64_t);
template void permute3<2, 8, 64>(const float*, float*, float*, int, int, int, int64_t, int64_t);

// 28. Three loops in a row over one row: (1) the mean with an int64 counter, (2) the variance
//     counting down, (3) the normalised output with a `!=` loop over a padded length.
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void three_pass(const float* x, float* out, int N, float eps) {
  const int64_t r = program_id(0);
  const float* xr = x + r * N;
  float s = 0.0f;
  for (int64_t k = 0; k < N; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    s += sum(load(xr + c, c < N, 0.0f));
  }
  const float mean = s / N;
  float ss = 0.0f;
  for (int k = (cdiv(N, BLOCK) - 1) * BLOCK; k >= 0; k -= BLOCK) {
    auto c = k + arange<BLOCK>();
    auto d = where(c < N, load(xr + c, c < N, 0.0f) - mean, 0.0f);
    ss += sum(d * d);
  }
  const float rstd = 1.0f / std::sqrt(ss / N + eps);
  const int padded = cdiv(N, BLOCK) * BLOCK;
  for (int k = 0; k != padded; k += BLOCK) {
    auto c = k + arange<BLOCK>();
    store(out + r * N + c, (load(xr + c, c < N, 0.0f) - mean) * rstd, c < N);
  }
}
template void three_pass<256>(const float*, float*, int, float);

// 29. EmbeddingBag (sum or mean, per-sample weights): bag b covers indices [offsets[b],
//     offsets[b + 1]) (possibly empty); the loop's trip count comes from memory.
template <int BD, int MEAN>
TILECC_KERNEL(num_warps = 2)
void embedding_bag(const bfloat16* table, const int64_t* idx, const int* offsets, const float* psw, float* out, int D) {
  const int b = program_id(0);
  auto d = program_id(1) * BD + arange<BD>();
  const int start = load(offsets + b), end = load(offsets + b + 1);
  auto acc = zeros<float, BD>();
  for (int j = start; j < end; ++j) {
    const int64_t row_ = load(idx + j);
    const float wgt = load(psw + j);
    acc += wgt * cast<float>(load(table + row_ * D + d, d < D, 0.0f));
  }
  if constexpr (MEAN) acc = acc / float(tilecc::max(end - start, 1));
  store(out + int64_t(b) * D + d, acc, d < D);
}
template void embedding_bag<128, 0>(const bfloat16*, const int64_t*, const int*, const float*, float*, int);
template void embedding_bag<64, 1>(const bfloat16*, const int64_t*, const int*, const float*, float*, int);

// 30. index_select along dim 1: out[r, j] = x[r, idx[j]] with int64 row strides; idx int32.
template <int BR, int BJ>
TILECC_KERNEL(num_warps = 4)
void index_select_cols(const half* x, const int* idx, half* out, int R, int J, int64_t ldx, int64_t ldo) {
  auto r = program_id(0) * BR + arange<BR>();
  auto j = program_id(1) * BJ + arange<BJ>();
  auto src = load(idx + j, j < J, 0);
  auto mask = col(r < R) & row(j < J);
  auto v = load(x + col(r) * ldx + row(src), mask, 0.0f);
  store(out + col(r) * ldo + row(j), v, mask);
}
template void index_select_cols<32, 64>(const half*, const int*, half*, int, int, int64_t, int64_t);

// 31. GeGLU (tanh GELU) over the two halves of the last axis, bf16 all the way (each op rounds to
//     bf16), one warp over 32-wide blocks and 8 warps over 2048-wide blocks.
template <int BLOCK, int WARPS>
TILECC_KERNEL(num_warps = WARPS)
void geglu(const bfloat16* x, bfloat16* out, int N) {
  const int64_t r = program_id(1);
  auto c = program_id(0) * BLOCK + arange<BLOCK>();
  auto m = c < N;
  auto a = load(x + r * 2 * N + c, m, 0.0f);
  auto g = load(x + r * 2 * N + N + c, m, 0.0f);
  auto inner = a * 0.7978845608f * (a * a * 0.044715f + 1.0f);
  auto gelu = a * 0.5f * (tanh(inner) + 1.0f);
  store(out + r * N + c, gelu * g, m);
}
template void geglu<32, 1>(const bfloat16*, bfloat16*, int);
template void geglu<2048, 8>(const bfloat16*, bfloat16*, int);
