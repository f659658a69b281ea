// Elementwise / memory kernels (uk2 probe set).
#include <tilecc/tile.hpp>
using namespace tilecc;

// 23. Rotary embedding on interleaved pairs (2i, 2i+1) of each row; cos/sin tables [S, D/2]; position = row % S.
template <int BM, int D>
TILECC_KERNEL(num_warps = 4)
void rope_pairs(const half* x, const float* cosb, const float* sinb, half* out, int rows, int S) {
  auto r = program_id(0) * BM + arange<BM>();
  auto i = arange<D / 2>();
  auto m = col(r < rows);
  auto pos = col(r % S);
  auto e = cast<float>(load(x + col(r) * D + row(2 * i), m, 0.0f));
  auto o = cast<float>(load(x + col(r) * D + row(2 * i + 1), m, 0.0f));
  auto c = load(cosb + pos * (D / 2) + row(i), m, 0.0f);
  auto s = load(sinb + pos * (D / 2) + row(i), m, 0.0f);
  store(out + col(r) * D + row(2 * i), cast<half>(e * c - o * s), m);
  store(out + col(r) * D + row(2 * i + 1), cast<half>(e * s + o * c), m);
}
template void rope_pairs<16, 128>(const half*, const float*, const float*, half*, int, int);

// 24. Rotary embedding, NeoX half-split form (first half with second half), bf16, aligned rows.
template <int BM, int D>
TILECC_KERNEL(num_warps = 4)
void rope_neox(TILECC_ALIGNED(16) const bfloat16* x, const float* cosb, const float* sinb, TILECC_ALIGNED(16) bfloat16* out,
               int rows, int S) {
  auto r = program_id(0) * BM + arange<BM>();
  auto i = arange<D / 2>();
  auto m = col(r < rows);
  auto pos = col(r % S);
  auto x1 = cast<float>(load(x + col(r) * D + row(i), m, 0.0f));
  auto x2 = cast<float>(load(x + col(r) * D + row(i + D / 2), m, 0.0f));
  auto c = load(cosb + pos * (D / 2) + row(i), m, 0.0f);
  auto s = load(sinb + pos * (D / 2) + row(i), m, 0.0f);
  store(out + col(r) * D + row(i), cast<bfloat16>(x1 * c - x2 * s), m);
  store(out + col(r) * D + row(i + D / 2), cast<bfloat16>(x2 * c + x1 * s), m);
}
template void rope_neox<32, 64>(const bfloat16*, const float*, const float*, bfloat16*, int, int);

// 25. Fused bias + dropout (precomputed uint8 keep mask) + residual, half.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void bias_dropout_res(const half* x, const half* bias, const uint8_t* keep, const half* res, half* out, int M, int N,
                      float inv_keep) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto msk = col(rm < M) & row(rn < N);
  auto off = col(rm) * N + row(rn);
  auto v = cast<float>(load(x + off, msk, 0.0f)) + row(cast<float>(load(bias + rn, rn < N, 0.0f)));
  auto k = load(keep + off, msk, uint8_t{0}) != uint8_t{0};
  auto y = where(k, v * inv_keep, 0.0f) + cast<float>(load(res + off, msk, 0.0f));
  store(out + off, cast<half>(y), msk);
}
template void bias_dropout_res<32, 128>(const half*, const half*, const uint8_t*, const half*, half*, int, int, float);

// 26. Conversion chains: f32 -> bf16 -> f32, f32 -> half -> f32, f32 -> int8 (saturating), int8 -> f32 -> bf16.
template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void convert_chain(const float* x, float* rb, float* rh, int8_t* ri, bfloat16* rib, int n) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto m = offs < n;
  auto v = load(x + offs, m, 0.0f);
  store(rb + offs, cast<float>(cast<bfloat16>(v)) * 2.0f, m);
  store(rh + offs, cast<float>(cast<half>(v * 1000.0f)), m);
  auto i8 = cast<int8_t>(v * 100.0f);
  store(ri + offs, i8, m);
  store(rib + offs, cast<bfloat16>(cast<float>(i8) * 0.5f), m);
}
template void convert_chain<512>(const float*, float*, float*, int8_t*, bfloat16*, int);

// 27. 3-D grid copy of a [Z, Y, X] tensor with a pitch per row, into a packed tensor, scaled.
template <int BY, int BX>
TILECC_KERNEL(num_warps = 4)
void copy3d(const float* in, float* out, int Z, int Y, int X, int64_t pitch, int64_t zstride) {
  const int64_t z = program_id(2);
  auto ry = program_id(1) * BY + arange<BY>();
  auto rx = program_id(0) * BX + arange<BX>();
  auto msk = col(ry < Y) & row(rx < X);
  auto v = load(in + z * zstride + col(ry) * pitch + row(rx), msk, 0.0f);
  store(out + (z * Y + col(ry)) * X + row(rx), v * 3.0f, msk);
}
template void copy3d<8, 128>(const float*, float*, int, int, int, int64_t, int64_t);

// 28. Strided slicing: every second column (out[r, j] = in[r, 2j]), and the reverse order of columns.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void slice_cols(const float* in, float* even, float* rev, int M, int N) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto j = program_id(1) * BN + arange<BN>();
  const int half_n = (N + 1) / 2;
  store(even + col(rm) * half_n + row(j), load(in + col(rm) * N + row(2 * j), col(rm < M) & row(2 * j < N), 0.0f),
        col(rm < M) & row(j < half_n));
  store(rev + col(rm) * N + row(j), load(in + col(rm) * N + row(N - 1 - j), col(rm < M) & row(j < N), 0.0f),
        col(rm < M) & row(j < N));
}
template void slice_cols<16, 64>(const float*, float*, float*, int, int);

// 29. Concatenation along the last axis: out[r, :Na] = a[r], out[r, Na:] = b[r], pointer select.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void concat_last(const half* a, const half* b, half* out, int M, int Na, int Nb) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto j = program_id(1) * BN + arange<BN>();
  const int N = Na + Nb;
  auto in_a = row(j < Na);
  auto pa = a + col(rm) * Na + row(j);
  auto pb = b + col(rm) * Nb + row(j - Na);
  auto src = where(in_a, pa, pb);
  auto v = load(src, col(rm < M) & row(j < N));
  store(out + col(rm) * N + row(j), v, col(rm < M) & row(j < N));
}
template void concat_last<16, 128>(const half*, const half*, half*, int, int, int);

// 30. Padded copy: out [(M + 2p), (N + 2p)] with the border filled by `other` from the load.
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void pad_copy(const float* in, float* out, int M, int N, int p, float fill) {
  auto orow = program_id(0) * BM + arange<BM>();
  auto ocol = program_id(1) * BN + arange<BN>();
  const int OM = M + 2 * p, ON = N + 2 * p;
  auto ir = orow - p;
  auto ic = ocol - p;
  auto inside = col((ir >= 0) & (ir < M)) & row((ic >= 0) & (ic < N));
  auto v = load(in + col(ir) * N + row(ic), inside, fill);
  store(out + col(orow) * ON + row(ocol), v, col(orow < OM) & row(ocol < ON));
}
template void pad_copy<32, 64>(const float*, float*, int, int, int, float);
