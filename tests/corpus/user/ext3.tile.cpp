// Block pointers, 16-bit atomics, LoRA, early exits inside a dot loop, custom reductions (third user-style set, tests/corpus/user).
#include <tilecc/tile.hpp>

#include <cstdint>
using namespace tilecc;

// 32. GEMM written with block pointers (Triton's make_block_ptr / tl.advance), leading dimensions
//     as parameters, ragged edges padded by the block pointers themselves; bf16 out.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void bp_gemm(const bfloat16* a, const bfloat16* b, bfloat16* c, int M, int N, int K, int lda, int ldb, int ldc) {
  auto pa = make_block_ptr<BM, BK>(a, {M, K}, {lda, 1}, {program_id(0) * BM, 0});
  auto pb = make_block_ptr<BK, BN>(b, {K, N}, {ldb, 1}, {0, program_id(1) * BN});
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = dot(load(pa), load(pb), acc);
    pa = advance(pa, {0, BK});
    pb = advance(pb, {BK, 0});
  }
  store(make_block_ptr<BM, BN>(c, {M, N}, {ldc, 1}, {program_id(0) * BM, program_id(1) * BN}), cast<bfloat16>(acc));
}
template void bp_gemm<128, 128, 64>(const bfloat16*, const bfloat16*, bfloat16*, int, int, int, int, int, int);
template void bp_gemm<64, 64, 32>(const bfloat16*, const bfloat16*, bfloat16*, int, int, int, int, int, int);

// 33. RWKV-style token shift fused into a GEMM: y[t] = x[t] · Wa + x[t - shift] · Wb per batch
//     (program_id(2)), the shifted rows read through a block pointer whose row offset is negative
//     for the first block (block pointers pad with zeros there). fp16, fp32 out.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void shift_gemm(const half* x, const half* wa, const half* wb, float* y, int T, int C, int N, int shift) {
  const int64_t bt = program_id(2);
  const half* xb = x + bt * T * C;
  const int t0 = program_id(0) * BM;
  auto px = make_block_ptr<BM, BK>(xb, {T, C}, {C, 1}, {t0, 0});
  auto ps = make_block_ptr<BM, BK>(xb, {T, C}, {C, 1}, {t0 - shift, 0});
  auto pa = make_block_ptr<BK, BN>(wa, {C, N}, {N, 1}, {0, program_id(1) * BN});
  auto pb = make_block_ptr<BK, BN>(wb, {C, N}, {N, 1}, {0, program_id(1) * BN});
  auto acc = zeros<float, BM, BN>();
  for (int k = 0; k < C; k += BK) {
    acc = dot(load(px), load(pa), acc);
    acc = dot(load(ps), load(pb), acc);
    px = advance(px, {0, BK});
    ps = advance(ps, {0, BK});
    pa = advance(pa, {BK, 0});
    pb = advance(pb, {BK, 0});
  }
  store(make_block_ptr<BM, BN>(y + bt * T * N, {T, N}, {N, 1}, {t0, program_id(1) * BN}), acc);
}
template void shift_gemm<64, 64, 64>(const half*, const half*, const half*, float*, int, int, int, int);

// 34. Rank-3 block pointers: out[z][y][x] = 2 * in[z][y][x + dx] over a [Z, Y, X] volume, windows
//     stepped along z in a loop (advance), source windows shifted (possibly negative) along x.
template <int BZ, int BY, int BX>
TILECC_KERNEL(num_warps = 4)
void bp_copy3d(const float* in, float* out, int Z, int Y, int X, int dx) {
  auto src = make_block_ptr<BZ, BY, BX>(in, {Z, Y, X}, {int64_t(Y) * X, X, 1}, {0, program_id(1) * BY, program_id(0) * BX + dx});
  auto dst = make_block_ptr<BZ, BY, BX>(out, {Z, Y, X}, {int64_t(Y) * X, X, 1}, {0, program_id(1) * BY, program_id(0) * BX});
  for (int z = 0; z < Z; z += BZ) {
    store(dst, load(src) * 2.0f);
    src = advance(src, {BZ, 0, 0});
    dst = advance(dst, {BZ, 0, 0});
  }
}
template void bp_copy3d<2, 8, 32>(const float*, float*, int, int, int, int);

// 35. 16-bit atomics: scatter-add rows of a half and a bf16 matrix into out rows chosen by an
//     index (index_add_), odd widths, plus an int ticket per element whose old value is stored.
template <int BR, int BC>
TILECC_KERNEL(num_warps = 4)
void index_add16(const half* src, const bfloat16* srcb, const int* idx, half* out, bfloat16* outb, int* tick, int* old,
                 int R, int C) {
  auto r = program_id(0) * BR + arange<BR>();
  auto c = program_id(1) * BC + arange<BC>();
  auto dst = load(idx + r, r < R, 0);
  auto m = col(r < R) & row(c < C);
  atomic_add(out + col(dst) * C + row(c), load(src + col(r) * C + row(c), m, 0.0f), m);
  atomic_add(outb + col(dst) * C + row(c), load(srcb + col(r) * C + row(c), m, 0.0f), m);
  auto o = atomic_add(tick + dst, 1, r < R);
  store(old + r, o, r < R);
}
template void index_add16<16, 64>(const half*, const bfloat16*, const int*, half*, bfloat16*, int*, int*, int, int);

// 36. LoRA-fused linear: y = x · W + scale * (x · A) · B, A [K][16], B [16][N]; x · A computed in
//     the same K loop (a second dot with N = 16), the rank-16 product after the loop.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void lora_linear(const half* x, const half* w, const half* la, const half* lb, half* y, int M, int N, int K, float scale) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto rr = arange<16>();
  auto acc = zeros<float, BM, BN>();
  auto xa = zeros<float, BM, 16>();
  for (int k = 0; k < K; k += BK) {
    auto xt = load(x + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto wt = load(w + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    auto at = load(la + col(k + rk) * 16 + row(rr), col(k + rk < K), 0.0f);
    acc = dot(xt, wt, acc);
    xa = dot(xt, at, xa);
  }
  auto bt = load(lb + col(rr) * N + row(rn), row(rn < N), 0.0f);
  acc = dot(cast<half>(xa * scale), bt, acc);
  store(y + col(rm) * N + row(rn), cast<half>(acc), col(rm < M) & row(rn < N));
}
template void lora_linear<64, 64, 32>(const half*, const half*, const half*, const half*, half*, int, int, int, float);
template void lora_linear<128, 128, 64>(const half*, const half*, const half*, const half*, half*, int, int, int, float);

// 37. A K loop left early: each row block has its own K extent kend[pid_m] (from memory, possibly
//     0); the loop runs to K but returns from inside once k reaches kend, storing first.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_kend(const half* a, const half* b, float* c, const int* kend, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  const int ke = load(kend + program_id(0));
  auto acc = zeros<float, BM, BN>();
  auto cmask = col(rm < M) & row(rn < N);
  for (int k = 0; k < K; k += BK) {
    if (k >= ke) {
      store(c + col(rm) * N + row(rn), acc, cmask);
      return;
    }
    auto x = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < ke), 0.0f);
    auto y = load(b + col(k + rk) * N + row(rn), col(k + rk < ke) & row(rn < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * N + row(rn), acc, cmask);
}
template void gemm_kend<64, 64, 32>(const half*, const half*, float*, const int*, int, int, int);

// 38. Custom reductions and scans: OR of int64 flags down the columns (reduce with a lambda), an
//     int8 maximum by a function object, and column counts of a bool mask by cumsum along axis 0.
struct max8 {
  int8_t operator()(int8_t a, int8_t b) const { return a < b ? b : a; }
};
template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void custom_reduce(const int64_t* flags, const int8_t* q, const float* x, int64_t* orv, int8_t* qmax, int* rank, int M, int N) {
  auto rm = arange<BM>();
  auto cn = program_id(0) * BN + arange<BN>();
  auto m = col(rm < M) & row(cn < N);
  auto f = load(flags + cast<int64_t>(col(rm)) * N + row(cn), m, int64_t{0});
  store(orv + cn, reduce<0>(f, [](int64_t a, int64_t b) { return a | b; }), cn < N);
  auto qv = load(q + col(rm) * N + row(cn), m, int8_t{-128});
  store(qmax + cn, reduce<0>(qv, max8{}), cn < N);
  auto pos = load(x + col(rm) * N + row(cn), m, 0.0f) > 0.0f;
  store(rank + col(rm) * N + row(cn), cumsum<0>(pos & m), m);
}
template void custom_reduce<64, 32>(const int64_t*, const int8_t*, const float*, int64_t*, int8_t*, int*, int, int);

// 39. A loop counting down with a run-time step: sum of rows hi, hi - step, ... > lo (strided
//     subsampling from the end), one column block per program.
template <int BN>
TILECC_KERNEL(num_warps = 2)
void strided_down_sum(const float* x, float* out, int M, int N, int step) {
  auto cn = program_id(0) * BN + arange<BN>();
  auto acc = zeros<float, BN>();
  for (int i = M - 1; i >= 0; i -= step) acc += load(x + int64_t(i) * N + cn, cn < N, 0.0f);
  store(out + cn, acc, cn < N);
}
template void strided_down_sum<128>(const float*, float*, int, int, int);
