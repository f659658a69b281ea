// Second audit on the GPU: every kernel of valid/36_* .. valid/53_* through its generated
// launcher on fresh random ragged inputs, compared with the host twin on the same inputs.
// Build: build.sh (nvcc, sm_80 + sm_90a). Run on an H100 as is (the sm_90a path) and with
// TILECC_FORCE_SM80=1 (the sm_80 path); TILECC_SEED=<n> repeats a run's inputs.
// The kernels first, then their launchers: the launcher headers include cuda_fp16.h, whose
// global `half` would make the kernels' `half` (tilecc::half through `using namespace tilecc`)
// ambiguous (see the report: <tilecc/gpu_testing.hpp>'s example has the other order).
#include "36_tut_vector_add.tile.cpp"
#include "37_tut_softmax.tile.cpp"
#include "38_tut_matmul.tile.cpp"
#include "39_tut_layernorm.tile.cpp"
#include "40_tut_attention.tile.cpp"
#include "41_rmsnorm.tile.cpp"
#include "42_rope.tile.cpp"
#include "43_gelu.tile.cpp"
#include "44_cross_entropy.tile.cpp"
#include "45_argmax.tile.cpp"
#include "46_gemv.tile.cpp"
#include "47_bmm.tile.cpp"
#include "48_int8_gemm.tile.cpp"
#include "49_colsum.tile.cpp"
#include "50_histogram.tile.cpp"
#include "51_prefix_sum.tile.cpp"
#include "52_persistent_matmul.tile.cpp"
#include "53_dropout.tile.cpp"

#include "36_tut_vector_add.h"
#include "37_tut_softmax.h"
#include "38_tut_matmul.h"
#include "39_tut_layernorm.h"
#include "40_tut_attention.h"
#include "41_rmsnorm.h"
#include "42_rope.h"
#include "43_gelu.h"
#include "44_cross_entropy.h"
#include "45_argmax.h"
#include "46_gemv.h"
#include "47_bmm.h"
#include "48_int8_gemm.h"
#include "49_colsum.h"
#include "50_histogram.h"
#include "51_prefix_sum.h"
#include "52_persistent_matmul.h"
#include "53_dropout.h"

#include <tilecc/gpu_testing.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tt = tilecc::testing;
using tt::gpu::buffer;

// The launchers' element types for the twin's.
template <class T> struct dev { using type = T; };
template <> struct dev<tilecc::half> { using type = __half; };
template <> struct dev<tilecc::bfloat16> { using type = __nv_bfloat16; };
template <class T>
typename dev<T>::type* P(const buffer<T>& b, std::size_t offset = 0) {
  return b.template as<typename dev<T>::type>(offset);
}
template <class T>
double tol_of() {
  if constexpr (std::is_same_v<T, tilecc::half>) return 2e-3;
  else if constexpr (std::is_same_v<T, tilecc::bfloat16>) return 1e-2;
  else return 1e-5;
}
template <class T>
std::vector<T> ints(tt::rng& r, std::size_t n, int lo, int hi) {
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(r.range(lo, hi));
  return v;
}
static std::string S(const char* fmt, long a = 0, long b = 0, long c = 0, long d = 0) {
  char buf[200];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

// 36: vector add (fp32 at an odd element offset: unaligned pointers; fp16 aligned).
static void vector_add(tt::report& rep, tt::rng& r) {
  const int n = 98432 + r.range(1, 999);
  auto x = tt::random_vector<float>(r, n + 1), y = tt::random_vector<float>(r, n + 1);
  std::vector<float> out(n + 8, tt::poison<float>()), twin = out;
  tilecc::host::launch(cdiv(n, 1024), a2_add<float, 1024>, x.data() + 1, y.data() + 1, twin.data() + 1, n);
  buffer<float> dx(x), dy(y), dout(out);
  TILECC_CUDA_CHECK(launch_a2_add_float_1024(dim3(cdiv(n, 1024)), nullptr, P(dx, 1), P(dy, 1), P(dout, 1), n));
  tt::gpu::sync();
  rep.compare_outputs(S("36 vector_add fp32 n=%ld, pointers off by 4 bytes", n), dout.get(), twin, 0.0);
  auto xh = tt::random_vector<tilecc::half>(r, n), yh = tt::random_vector<tilecc::half>(r, n);
  std::vector<tilecc::half> oh(n + 5, tt::poison<tilecc::half>()), th = oh;
  tilecc::host::launch(cdiv(n, 2048), a2_add<tilecc::half, 2048>, xh.data(), yh.data(), th.data(), n);
  buffer<tilecc::half> dxh(xh), dyh(yh), doh(oh);
  TILECC_CUDA_CHECK(launch_a2_add_half_2048(dim3(cdiv(n, 2048)), nullptr, P(dxh), P(dyh), P(doh), n));
  tt::gpu::sync();
  rep.compare_outputs(S("36 vector_add fp16 n=%ld", n), doh.get(), th, 0.0);
}

// 37: softmax, persistent grid smaller than the rows.
template <class T, int B, int W, class L>
static void softmax_case(tt::report& rep, tt::rng& r, int rows, int cols, int programs, L launch) {
  const int stride = cols + r.range(0, 9);
  auto x = tt::random_vector<T>(r, std::size_t(rows) * stride, 3.0f);
  std::vector<T> out(x.size(), tt::poison<T>()), twin = out;
  tilecc::host::launch(programs, a2_softmax<T, B, W>, twin.data(), x.data(), stride, stride, rows, cols);
  buffer<T> dx(x), dout(out);
  TILECC_CUDA_CHECK(launch(dim3(programs), nullptr, P(dout), P(dx), stride, stride, rows, cols));
  tt::gpu::sync();
  rep.compare_outputs(S("37 softmax %ldx%ld (stride %ld), %ld programs", rows, cols, stride, programs) +
                          (sizeof(T) == 4 ? " fp32" : std::is_same_v<T, tilecc::half> ? " fp16" : " bf16"),
                      dout.get(), twin, tol_of<T>());
}

// 38: matmuls.
static void matmul(tt::report& rep, tt::rng& r) {
  {
    const int M = 200 + r.range(0, 150), N = 130 + r.range(0, 200), K = 70 + r.range(0, 100);
    auto a = tt::random_vector<tilecc::half>(r, std::size_t(M) * K), b = tt::random_vector<tilecc::half>(r, std::size_t(K) * N);
    auto bias = tt::random_vector<float>(r, N);
    std::vector<tilecc::half> c(std::size_t(M) * N, tt::poison<tilecc::half>()), twin = c;
    const int grid = cdiv(M, 128) * cdiv(N, 128);
    tilecc::host::launch(grid, a2_matmul<tilecc::half, 128, 128, 64, 8, true>, a.data(), b.data(), twin.data(), bias.data(), M,
                         N, K, K, 1, N, 1, N, 1);
    buffer<tilecc::half> da(a), db(b), dc(c);
    buffer<float> dbias(bias);
    TILECC_CUDA_CHECK(launch_a2_matmul_half_128_128_64_8_true(dim3(grid), nullptr, P(da), P(db), P(dc), P(dbias), M, N, K, K, 1,
                                                              N, 1, N, 1));
    tt::gpu::sync();
    rep.compare_outputs(S("38 matmul fp16 %ldx%ldx%ld grouped, bias+leaky_relu", M, N, K), dc.get(), twin, 2e-3);
  }
  {  // bf16, A column-major, B stored [N, K].
    const int M = 60 + r.range(0, 100), N = 50 + r.range(0, 100), K = 30 + r.range(0, 100);
    auto a = tt::random_vector<tilecc::bfloat16>(r, std::size_t(M) * K), b = tt::random_vector<tilecc::bfloat16>(r, std::size_t(K) * N);
    auto bias = tt::random_vector<float>(r, N);
    std::vector<tilecc::bfloat16> c(std::size_t(M) * N, tt::poison<tilecc::bfloat16>()), twin = c;
    const int grid = cdiv(M, 64) * cdiv(N, 64);
    tilecc::host::launch(grid, a2_matmul<tilecc::bfloat16, 64, 64, 32, 4, false>, a.data(), b.data(), twin.data(), bias.data(),
                         M, N, K, 1, M, 1, K, N, 1);
    buffer<tilecc::bfloat16> da(a), db(b), dc(c);
    buffer<float> dbias(bias);
    TILECC_CUDA_CHECK(launch_a2_matmul_bfloat16_64_64_32_4_false(dim3(grid), nullptr, P(da), P(db), P(dc), P(dbias), M, N, K, 1,
                                                                 M, 1, K, N, 1));
    tt::gpu::sync();
    rep.compare_outputs(S("38 matmul bf16 %ldx%ldx%ld col-major A, [N,K] B", M, N, K), dc.get(), twin, 1e-2);
  }
  for (int aligned = 0; aligned < 2; ++aligned) {  // block pointers; a pitch that is or is not 16-byte aligned
    const int M = 150 + r.range(0, 100), N = 200 + r.range(0, 100), K = 64 + r.range(0, 90);
    const int lda = aligned ? (K + 7) / 8 * 8 : K, ldb = aligned ? (N + 7) / 8 * 8 : N;
    auto a = tt::random_vector<tilecc::half>(r, std::size_t(M) * lda), b = tt::random_vector<tilecc::half>(r, std::size_t(K) * ldb);
    auto bias = tt::random_vector<float>(r, N);
    std::vector<tilecc::half> c(std::size_t(M) * N, tt::poison<tilecc::half>()), twin = c;
    const int grid = cdiv(M, 64) * cdiv(N, 128);
    tilecc::host::launch(grid, a2_matmul_bp<64, 128, 32, 4>, a.data(), b.data(), twin.data(), bias.data(), M, N, K,
                         int64_t{lda}, int64_t{1}, int64_t{ldb}, int64_t{1}, int64_t{N}, int64_t{1});
    buffer<tilecc::half> da(a), db(b), dc(c);
    buffer<float> dbias(bias);
    TILECC_CUDA_CHECK(launch_a2_matmul_bp_64_128_32_4(dim3(grid), nullptr, P(da), P(db), P(dc), P(dbias), M, N, K, lda, 1, ldb, 1,
                                                      N, 1));
    tt::gpu::sync();
    rep.compare_outputs(S("38 matmul block ptr fp16 %ldx%ldx%ld, lda %ld", M, N, K, lda), dc.get(), twin, 2e-3);
  }
}

// 39: layer norm forward, backward dx + partial dw/db (atomics), dw/db reduction.
template <class T, int BF, int G, int BN, int BM2, int BN2, class LF, class LB, class LR>
static void layernorm_case(tt::report& rep, tt::rng& r, int M, int N, LF lf, LB lb, LR lr) {
  const int stride = N + r.range(0, 5);
  auto x = tt::random_vector<T>(r, std::size_t(M) * stride, 2.0f), w = tt::random_vector<T>(r, N), b = tt::random_vector<T>(r, N),
       dy = tt::random_vector<T>(r, std::size_t(M) * stride);
  std::vector<T> y(x.size(), T(0.0f)), dx(x.size(), T(0.0f)), fdw(N, tt::poison<T>()), fdb(N, tt::poison<T>());
  std::vector<float> mean(M, tt::poison<float>()), rstd(M, tt::poison<float>()), pdw(static_cast<std::size_t>(G) * N, 0.0f), pdb = pdw;
  auto ty = y, tdx = dx, tfdw = fdw, tfdb = fdb;
  auto tmean = mean, trstd = rstd, tpdw = pdw, tpdb = pdb;
  const float eps = 1e-5f;
  tilecc::host::launch(M, a2_ln_fwd<T, BF>, x.data(), ty.data(), w.data(), b.data(), tmean.data(), trstd.data(), stride, N, eps);
  tilecc::host::launch(M, a2_ln_bwd_dx_fused<T, G, BN>, tdx.data(), dy.data(), tpdw.data(), tpdb.data(), x.data(), w.data(),
                       tmean.data(), trstd.data(), stride, N);
  tilecc::host::launch(cdiv(N, BN2), a2_ln_bwd_dwdb<T, BM2, BN2>, tpdw.data(), tpdb.data(), tfdw.data(), tfdb.data(), G, N);
  buffer<T> dX(x), dW(w), dB(b), dDY(dy), dY(y), dDX(dx), dFDW(fdw), dFDB(fdb);
  buffer<float> dmean(mean), drstd(rstd), dpdw(pdw), dpdb(pdb);
  TILECC_CUDA_CHECK(lf(dim3(M), nullptr, P(dX), P(dY), P(dW), P(dB), P(dmean), P(drstd), stride, N, eps));
  TILECC_CUDA_CHECK(lb(dim3(M), nullptr, P(dDX), P(dDY), P(dpdw), P(dpdb), P(dX), P(dW), P(dmean), P(drstd), stride, N));
  TILECC_CUDA_CHECK(lr(dim3(cdiv(N, BN2)), nullptr, P(dpdw), P(dpdb), P(dFDW), P(dFDB), G, N));
  tt::gpu::sync();
  const std::string what = S("39 layernorm %ldx%ld ", M, N) + (sizeof(T) == 2 ? "fp16" : "fp32");
  const double tol = tol_of<T>();
  rep.compare_outputs(what + " fwd y", dY.get(), ty, tol);
  rep.compare_outputs(what + " fwd mean", dmean.get(), tmean, 1e-5);
  rep.compare_outputs(what + " fwd rstd", drstd.get(), trstd, 1e-5);
  rep.compare_outputs(what + " bwd dx", dDX.get(), tdx, tol);
  rep.compare_outputs(what + " bwd partial dw (atomics)", dpdw.get(), tpdw, 1e-5);
  rep.compare_outputs(what + " bwd dw", dFDW.get(), tfdw, tol);
  rep.compare_outputs(what + " bwd db", dFDB.get(), tfdb, tol);
}

// 40: attention forward; K in another layout than Q/V/O.
template <int STAGE, class L>
static void attention_case(tt::report& rep, tt::rng& r, int Z, int H, int N, L launch) {
  constexpr int D = 64, BM = 128;
  const float sm_scale = 0.125f;
  using tilecc::half;
  auto q = tt::random_vector<half>(r, std::size_t(Z) * H * N * D), k = tt::random_vector<half>(r, q.size()),
       v = tt::random_vector<half>(r, q.size());
  std::vector<half> o(q.size(), tt::poison<half>()), to = o;
  std::vector<float> m(std::size_t(Z) * H * N, tt::poison<float>()), tm = m;
  const int64_t sqz = int64_t(H) * N * D, sqh = int64_t(N) * D, sqm = D, sqk = 1;
  const int64_t skz = int64_t(N) * H * D, skh = D, skn = int64_t(H) * D, skk = 1;
  tilecc::host::launch({cdiv(N, BM), Z * H}, a2_attn_fwd<D, BM, 64, STAGE>, q.data(), k.data(), v.data(), sm_scale, tm.data(),
                       to.data(), sqz, sqh, sqm, sqk, skz, skh, skn, skk, sqz, sqh, sqm, sqk, sqz, sqh, sqm, sqk, Z, H, N);
  buffer<half> dq(q), dk(k), dv(v), dout(o);
  buffer<float> dm(m);
  TILECC_CUDA_CHECK(launch(dim3(cdiv(N, BM), Z * H), nullptr, P(dq), P(dk), P(dv), sm_scale, P(dm), P(dout), sqz, sqh, sqm, sqk,
                           skz, skh, skn, skk, sqz, sqh, sqm, sqk, sqz, sqh, sqm, sqk, Z, H, N));
  tt::gpu::sync();
  const std::string w2 = std::string("40 attention ") + (STAGE == 3 ? "causal" : "non-causal") + S(" Z=%ld H=%ld N=%ld D=64", Z, H, N);
  rep.compare_outputs(w2 + " O", dout.get(), to, 5e-3);
  rep.compare_outputs(w2 + " M", dm.get(), tm, 1e-5);
}

// 41: RMSNorm forward (three types) and backward (bf16).
template <class T, int B, class LF>
static void rmsnorm_case(tt::report& rep, tt::rng& r, int M, int N, LF lf, bool bwd) {
  const int64_t stride = N + r.range(0, 7);
  auto x = tt::random_vector<T>(r, std::size_t(M) * stride), w = tt::random_vector<T>(r, N), dy = tt::random_vector<T>(r, x.size());
  std::vector<T> y(x.size(), tt::poison<T>()), ty = y, dx = y, tdx = y;
  std::vector<float> rs(M, tt::poison<float>()), trs = rs;
  tilecc::host::launch(M, a2_rmsnorm_fwd<T, B>, ty.data(), stride, x.data(), stride, w.data(), trs.data(), N, 1e-6f);
  buffer<T> dX(x), dW(w), dY(y), dDY(dy), dDX(dx);
  buffer<float> dRS(rs);
  TILECC_CUDA_CHECK(lf(dim3(M), nullptr, P(dY), stride, P(dX), stride, P(dW), P(dRS), N, 1e-6f));
  const std::string what = S("41 rmsnorm %ldx%ld ", M, N) + (sizeof(T) == 4 ? "fp32" : std::is_same_v<T, tilecc::half> ? "fp16" : "bf16");
  if constexpr (std::is_same_v<T, tilecc::bfloat16> && B == 1024) {
    if (bwd) {
      tilecc::host::launch(M, a2_rmsnorm_bwd<T, B>, tdx.data(), dy.data(), x.data(), w.data(), trs.data(), stride, N);
      TILECC_CUDA_CHECK(launch_a2_rmsnorm_bwd_bfloat16_1024(dim3(M), nullptr, P(dDX), P(dDY), P(dX), P(dW), P(dRS), stride, N));
    }
  }
  tt::gpu::sync();
  rep.compare_outputs(what + " y", dY.get(), ty, tol_of<T>());
  rep.compare_outputs(what + " 1/rms", dRS.get(), trs, 1e-5);
  if (bwd) rep.compare_outputs(what + " backward dx", dDX.get(), tdx, tol_of<T>());
}

// 42: rotary embedding, in place on q and k.
template <class T, int BH, int BD, class L>
static void rope_case(tt::report& rep, tt::rng& r, int tokens, int nqh, int nkh, int hd, L launch) {
  const int half_dim = hd / 2;
  const int64_t qst = int64_t(nqh) * hd, qsh = hd, ksh = hd + 8, kst = int64_t(nkh) * ksh, css = half_dim + 3;
  auto q = tt::random_vector<T>(r, std::size_t(tokens) * qst), k = tt::random_vector<T>(r, std::size_t(tokens) * kst);
  std::vector<float> cs(std::size_t(tokens) * css), sn(cs.size());
  for (int t = 0; t < tokens; ++t)
    for (int i = 0; i < half_dim; ++i) {
      const double th = t * std::pow(10000.0, -2.0 * i / hd);
      cs[t * css + i] = float(std::cos(th)), sn[t * css + i] = float(std::sin(th));
    }
  auto tq = q, tk = k;
  tilecc::host::launch(tokens, a2_rope<T, BH, BD>, tq.data(), tk.data(), cs.data(), sn.data(), qst, qsh, kst, ksh, css, nqh, nkh, hd);
  buffer<T> dq(q), dk(k);
  buffer<float> dc(cs), ds(sn);
  TILECC_CUDA_CHECK(launch(dim3(tokens), nullptr, P(dq), P(dk), P(dc), P(ds), qst, qsh, kst, ksh, css, nqh, nkh, hd));
  tt::gpu::sync();
  const std::string what = S("42 rope tokens=%ld heads=%ld/%ld head_dim=%ld", tokens, nqh, nkh, hd) + (sizeof(T) == 2 && std::is_same_v<T, tilecc::half> ? " fp16" : " bf16");
  rep.compare_outputs(what + " q", dq.get(), tq, tol_of<T>());
  rep.compare_outputs(what + " k (padded rows kept)", dk.get(), tk, tol_of<T>());
}

// 43: GELU forward and backward.
template <class T, int B, class L>
static void gelu_fwd_case(tt::report& rep, tt::rng& r, int n, L launch) {
  auto x = tt::random_vector<T>(r, n, 3.0f);
  std::vector<T> y(n + 3, tt::poison<T>()), ty = y;
  tilecc::host::launch(cdiv(n, B), a2_gelu_fwd<T, B>, x.data(), ty.data(), n);
  buffer<T> dx(x), dy(y);
  TILECC_CUDA_CHECK(launch(dim3(cdiv(n, B)), nullptr, P(dx), P(dy), n));
  tt::gpu::sync();
  rep.compare_outputs(S("43 gelu tanh n=%ld ", n) + (sizeof(T) == 4 ? "fp32" : std::is_same_v<T, tilecc::half> ? "fp16" : "bf16"), dy.get(), ty,
                      sizeof(T) == 4 ? 1e-5 : tol_of<T>());
}
template <class T, int B, class L>
static void gelu_bwd_case(tt::report& rep, tt::rng& r, int n, L launch) {
  auto x = tt::random_vector<T>(r, n, 3.0f), g = tt::random_vector<T>(r, n);
  std::vector<T> dx(n + 3, tt::poison<T>()), tdx = dx;
  tilecc::host::launch(cdiv(n, B), a2_gelu_bwd<T, B>, g.data(), x.data(), tdx.data(), n);
  buffer<T> dX(x), dG(g), dDX(dx);
  TILECC_CUDA_CHECK(launch(dim3(cdiv(n, B)), nullptr, P(dG), P(dX), P(dDX), n));
  tt::gpu::sync();
  rep.compare_outputs(S("43 gelu backward n=%ld ", n) + (sizeof(T) == 4 ? "fp32" : "bf16"), dDX.get(), tdx, sizeof(T) == 4 ? 1e-5 : tol_of<T>());
}

// 44: cross entropy forward + backward with ignored rows.
template <class T, int B, class LF, class LB>
static void xent_case(tt::report& rep, tt::rng& r, int rows, int V, LF lf, LB lb) {
  const int64_t stride = V + r.range(0, 9);
  auto x = tt::random_vector<T>(r, std::size_t(rows) * stride, 4.0f);
  std::vector<int64_t> y(rows);
  int nn = 0;
  for (int i = 0; i < rows; ++i) {
    y[i] = r.range(0, 4) == 0 ? -100 : r.range(0, V - 1);
    nn += y[i] != -100;
  }
  y[0] = V - 1;
  nn = std::max(nn, 1);
  std::vector<float> loss(rows, tt::poison<float>()), lse = loss, tloss = loss, tlse = loss;
  std::vector<T> dx(x.size(), tt::poison<T>()), tdx = dx;
  tilecc::host::launch(rows, a2_xent_fwd<T, B>, x.data(), stride, y.data(), tloss.data(), tlse.data(), V, -100);
  tilecc::host::launch(rows, a2_xent_bwd<T, B>, x.data(), tdx.data(), stride, y.data(), tlse.data(), V, nn, -100);
  buffer<T> dX(x), dDX(dx);
  buffer<int64_t> dy(y);
  buffer<float> dloss(loss), dlse(lse);
  TILECC_CUDA_CHECK(lf(dim3(rows), nullptr, P(dX), stride, P(dy), P(dloss), P(dlse), V, -100));
  TILECC_CUDA_CHECK(lb(dim3(rows), nullptr, P(dX), P(dDX), stride, P(dy), P(dlse), V, nn, -100));
  tt::gpu::sync();
  const std::string what = S("44 cross-entropy rows=%ld vocab=%ld ", rows, V) + (sizeof(T) == 4 ? "fp32" : "bf16");
  rep.compare_outputs(what + " loss", dloss.get(), tloss, 1e-5);
  rep.compare_outputs(what + " lse", dlse.get(), tlse, 1e-6);
  rep.compare_outputs(what + " dlogits", dDX.get(), tdx, sizeof(T) == 4 ? 1e-5 : tol_of<T>());
}

static void argmax(tt::report& rep, tt::rng& r) {
  {
    const int rows = 10 + r.range(0, 10), n = 2000 + r.range(0, 3000);
    const int64_t stride = n + r.range(0, 3);
    auto x = tt::random_vector<float>(r, std::size_t(rows) * stride);
    x[1 * stride + n - 1] = 100.0f;
    x[2 * stride + 10] = 50.0f, x[2 * stride + n - 2] = 50.0f;
    std::vector<int> idx(rows, -1), tidx = idx;
    std::vector<float> val(rows, tt::poison<float>()), tval = val;
    tilecc::host::launch(rows, a2_argmax_long<512>, x.data(), stride, tidx.data(), tval.data(), n);
    buffer<float> dx(x), dval(val);
    buffer<int> didx(idx);
    TILECC_CUDA_CHECK(launch_a2_argmax_long_512(dim3(rows), nullptr, P(dx), stride, P(didx), P(dval), n));
    tt::gpu::sync();
    rep.expect(S("45 argmax long rows %ldx%ld fp32: indices (first on ties)", rows, n), didx.get() == tidx);
    rep.compare_outputs(S("45 argmax long rows %ldx%ld fp32: values", rows, n), dval.get(), tval, 0.0);
  }
  {
    const int rows = 50 + r.range(0, 50), n = 60 + r.range(0, 68);
    const int64_t stride = n + 4;
    std::vector<tilecc::bfloat16> x(std::size_t(rows) * stride);
    for (auto& e : x) e = tilecc::bfloat16(float(r.range(-20, 20)) / 4.0f);
    std::vector<int> idx(rows + 2, -1), tidx = idx;
    std::vector<tilecc::bfloat16> val(rows + 2, tt::poison<tilecc::bfloat16>()), tval = val;
    tilecc::host::launch(cdiv(rows, 16), a2_argmax_rows<16, 128>, x.data(), stride, tidx.data(), tval.data(), rows, n);
    buffer<tilecc::bfloat16> dx(x), dval(val);
    buffer<int> didx(idx);
    TILECC_CUDA_CHECK(launch_a2_argmax_rows_16_128(dim3(cdiv(rows, 16)), nullptr, P(dx), stride, P(didx), P(dval), rows, n));
    tt::gpu::sync();
    rep.expect(S("45 argmax<1> bf16 %ldx%ld with ties: first index", rows, n), didx.get() == tidx);
    rep.compare_outputs(S("45 max<1> bf16 %ldx%ld", rows, n), dval.get(), tval, 0.0);
  }
}

static void gemv(tt::report& rep, tt::rng& r) {
  using tilecc::half;
  for (int c = 0; c < 2; ++c) {
    const int M = c ? 10 + r.range(0, 20) : 900 + r.range(0, 200), K = c ? 90 + r.range(0, 40) : 3000 + r.range(0, 100);
    const int64_t lda = K + r.range(0, 9);
    auto A = tt::random_vector<half>(r, std::size_t(M) * lda), x = tt::random_vector<half>(r, K);
    auto bias = tt::random_vector<float>(r, M);
    std::vector<float> y(M + 4, tt::poison<float>()), ty = y;
    buffer<half> dA(A), dx(x);
    buffer<float> db(bias), dy(y);
    if (c == 0) {
      tilecc::host::launch(cdiv(M, 32), a2_gemv<32, 256>, A.data(), x.data(), bias.data(), ty.data(), M, K, lda);
      TILECC_CUDA_CHECK(launch_a2_gemv_32_256(dim3(cdiv(M, 32)), nullptr, P(dA), P(dx), P(db), P(dy), M, K, lda));
    } else {
      tilecc::host::launch(cdiv(M, 8), a2_gemv<8, 512>, A.data(), x.data(), bias.data(), ty.data(), M, K, lda);
      TILECC_CUDA_CHECK(launch_a2_gemv_8_512(dim3(cdiv(M, 8)), nullptr, P(dA), P(dx), P(db), P(dy), M, K, lda));
    }
    tt::gpu::sync();
    rep.compare_outputs(S("46 gemv fp16 %ldx%ld lda %ld", M, K, lda), dy.get(), ty, 1e-5);
  }
  {
    const int M = 300 + r.range(0, 100), K = 4000 + r.range(0, 2000), split = 4, kps = cdiv(cdiv(K, split), 128) * 128;
    auto A = tt::random_vector<float>(r, std::size_t(M) * K), x = tt::random_vector<float>(r, K);
    std::vector<float> y(M, 0.0f), ty = y;
    tilecc::host::launch({cdiv(M, 64), split}, a2_gemv_splitk<64, 128>, A.data(), x.data(), ty.data(), M, K, int64_t{K}, kps);
    buffer<float> dA(A), dx(x), dy(y);
    TILECC_CUDA_CHECK(launch_a2_gemv_splitk_64_128(dim3(cdiv(M, 64), split), nullptr, P(dA), P(dx), P(dy), M, K, K, kps));
    tt::gpu::sync();
    rep.compare_outputs(S("46 gemv split-K atomics fp32 %ldx%ld", M, K), dy.get(), ty, 1e-5);
  }
}

template <class T, int BM, int BN, int BK, class L>
static void bmm_case(tt::report& rep, tt::rng& r, int batch, int M, int N, int K, bool bt, L launch) {
  const int64_t sam = K + 3, sak = 1, sab = M * sam;
  const int64_t sbk = bt ? 1 : N, sbn = bt ? K : 1, sbb = int64_t(K) * N + 5;
  const int64_t scm = N, scn = 1, scb = int64_t(M) * N;
  auto a = tt::random_vector<T>(r, std::size_t(batch) * sab), b = tt::random_vector<T>(r, std::size_t(batch) * sbb);
  std::vector<T> c(std::size_t(batch) * scb, tt::poison<T>()), tc = c;
  const int gx = cdiv(M, BM) * cdiv(N, BN);
  tilecc::host::launch({gx, batch}, a2_bmm<T, BM, BN, BK>, a.data(), b.data(), tc.data(), M, N, K, sab, sam, sak, sbb, sbk, sbn, scb,
                       scm, scn);
  buffer<T> da(a), db(b), dc(c);
  TILECC_CUDA_CHECK(launch(dim3(gx, batch), nullptr, P(da), P(db), P(dc), M, N, K, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn));
  tt::gpu::sync();
  rep.compare_outputs(S("47 bmm block ptr batch=%ld %ldx%ldx%ld", batch, M, N, K) + (bt ? " B transposed" : "") +
                          (std::is_same_v<T, tilecc::half> ? " fp16" : " bf16"),
                      dc.get(), tc, tol_of<T>());
}

static void bmm_ptr(tt::report& rep, tt::rng& r) {
  using tilecc::half;
  const int batch = 3 + r.range(0, 4), M = 30 + r.range(0, 40), N = 30 + r.range(0, 40), K = 40 + r.range(0, 40);
  auto a = tt::random_vector<half>(r, std::size_t(batch) * M * K), b = tt::random_vector<half>(r, std::size_t(batch) * K * N);
  std::vector<float> c(std::size_t(batch) * M * N, tt::poison<float>()), tc = c;
  const int gx = cdiv(M, 32) * cdiv(N, 32);
  tilecc::host::launch({gx, batch}, a2_bmm_ptr<32, 32, 32>, a.data(), b.data(), tc.data(), M, N, K, 0.5f);
  buffer<half> da(a), db(b);
  buffer<float> dc(c);
  TILECC_CUDA_CHECK(launch_a2_bmm_ptr_32_32_32(dim3(gx, batch), nullptr, P(da), P(db), P(dc), M, N, K, 0.5f));
  tt::gpu::sync();
  rep.compare_outputs(S("47 bmm pointer tiles fp16->fp32 batch=%ld %ldx%ldx%ld", batch, M, N, K), dc.get(), tc, 1e-5);
}

template <int BM, int BN, int BK, bool HB, class L>
static void w8a16_case(tt::report& rep, tt::rng& r, int M, int N, int K, L launch) {
  using tilecc::half;
  const int64_t lda = K + r.range(0, 3), ldw = N + r.range(0, 3), ldc = N;
  auto a = tt::random_vector<half>(r, std::size_t(M) * lda);
  auto w = ints<int8_t>(r, std::size_t(K) * ldw, -128, 127);
  std::vector<float> scale(N);
  for (auto& e : scale) e = 0.001f + 0.01f * std::fabs(r.normal());
  auto bias = tt::random_vector<half>(r, N);
  std::vector<half> c(std::size_t(M) * ldc, tt::poison<half>()), tc = c;
  tilecc::host::launch({cdiv(M, BM), cdiv(N, BN)}, a2_w8a16<BM, BN, BK, HB>, a.data(), w.data(), scale.data(), bias.data(), tc.data(),
                       M, N, K, lda, ldw, ldc);
  buffer<half> da(a), dbias(bias), dc(c);
  buffer<int8_t> dw(w);
  buffer<float> ds(scale);
  TILECC_CUDA_CHECK(launch(dim3(cdiv(M, BM), cdiv(N, BN)), nullptr, P(da), P(dw), P(ds), P(dbias), P(dc), M, N, K, lda, ldw, ldc));
  tt::gpu::sync();
  rep.compare_outputs(S("48 w8a16 fp16 x int8 %ldx%ldx%ld lda %ld", M, N, K, lda), dc.get(), tc, 2e-3);
}

static void w8a8(tt::report& rep, tt::rng& r) {
  const int M = 50 + r.range(0, 50), N = 50 + r.range(0, 80), K = 100 + r.range(0, 100);
  auto a = ints<int8_t>(r, std::size_t(M) * K, -128, 127), b = ints<int8_t>(r, std::size_t(K) * N, -128, 127);
  auto as = tt::random_vector<float>(r, M), bs = tt::random_vector<float>(r, N);
  std::vector<float> c(std::size_t(M) * N, tt::poison<float>()), tc = c;
  std::vector<int32_t> ci(std::size_t(M) * N, -1), tci = ci;
  tilecc::host::launch({cdiv(M, 64), cdiv(N, 64)}, a2_w8a8<64, 64, 64>, a.data(), b.data(), as.data(), bs.data(), tc.data(), tci.data(),
                       M, N, K);
  buffer<int8_t> da(a), db(b);
  buffer<float> das(as), dbs(bs), dc(c);
  buffer<int32_t> dci(ci);
  TILECC_CUDA_CHECK(launch_a2_w8a8_64_64_64(dim3(cdiv(M, 64), cdiv(N, 64)), nullptr, P(da), P(db), P(das), P(dbs), P(dc), P(dci), M, N, K));
  tt::gpu::sync();
  rep.expect(S("48 w8a8 int8 x int8 -> int32 %ldx%ldx%ld exact", M, N, K), dci.get() == tci);
  rep.compare_outputs(S("48 w8a8 scaled fp32 %ldx%ldx%ld", M, N, K), dc.get(), tc, 1e-6);
}

static void colsum(tt::report& rep, tt::rng& r) {
  {
    const int M = 900 + r.range(0, 200), N = 50 + r.range(0, 60);
    const int64_t ld = N + r.range(0, 11);
    auto x = tt::random_vector<float>(r, std::size_t(M) * ld);
    std::vector<float> out(N + 3, tt::poison<float>()), t = out;
    tilecc::host::launch(cdiv(N, 64), a2_colsum<float, 32, 64>, x.data(), t.data(), M, N, ld);
    buffer<float> dx(x), dout(out);
    TILECC_CUDA_CHECK(launch_a2_colsum_float_32_64(dim3(cdiv(N, 64)), nullptr, P(dx), P(dout), M, N, ld));
    tt::gpu::sync();
    rep.compare_outputs(S("49 colsum fp32 %ldx%ld ld %ld", M, N, ld), dout.get(), t, 1e-5);
  }
  {
    const int M = 100 + r.range(0, 100), N = 200 + r.range(0, 200);
    const int64_t ld = N + r.range(0, 11);
    auto x = tt::random_vector<tilecc::half>(r, std::size_t(M) * ld);
    std::vector<float> out(N + 3, tt::poison<float>()), t = out;
    tilecc::host::launch(cdiv(N, 128), a2_colsum<tilecc::half, 64, 128>, x.data(), t.data(), M, N, ld);
    buffer<tilecc::half> dx(x);
    buffer<float> dout(out);
    TILECC_CUDA_CHECK(launch_a2_colsum_half_64_128(dim3(cdiv(N, 128)), nullptr, P(dx), P(dout), M, N, ld));
    tt::gpu::sync();
    rep.compare_outputs(S("49 colsum fp16->fp32 %ldx%ld ld %ld", M, N, ld), dout.get(), t, 1e-5);
  }
  {
    const int M = 900 + r.range(0, 200), N = 300 + r.range(0, 100);
    auto x = tt::random_vector<float>(r, std::size_t(M) * N);
    std::vector<float> out(N, 0.0f), t = out;
    tilecc::host::launch({cdiv(N, 128), cdiv(M, 64)}, a2_colsum_atomic<16, 128, 64>, x.data(), t.data(), M, N, int64_t{N});
    buffer<float> dx(x), dout(out);
    TILECC_CUDA_CHECK(launch_a2_colsum_atomic_16_128_64(dim3(cdiv(N, 128), cdiv(M, 64)), nullptr, P(dx), P(dout), M, N, N));
    tt::gpu::sync();
    rep.compare_outputs(S("49 colsum split-M fp32 atomics %ldx%ld", M, N), dout.get(), t, 1e-5);
  }
}

static void histogram(tt::report& rep, tt::rng& r) {
  {
    const int n = 100000 + r.range(0, 9999), bins = 30 + r.range(0, 20);
    auto x = tt::random_vector<float>(r, n, 2.0f);
    x[5] = NAN, x[6] = 1e30f, x[7] = -1e30f;
    const float lo = -3.0f, inv = float(bins) / 6.0f;
    std::vector<int> counts(bins, 0), t = counts;
    tilecc::host::launch(cdiv(n, 1024), a2_histogram<1024>, x.data(), t.data(), n, bins, lo, inv);
    buffer<float> dx(x);
    buffer<int> dc(counts);
    TILECC_CUDA_CHECK(launch_a2_histogram_1024(dim3(cdiv(n, 1024)), nullptr, P(dx), P(dc), n, bins, lo, inv));
    tt::gpu::sync();
    rep.expect(S("50 histogram fp32 n=%ld bins=%ld (NaN skipped, inf clamped)", n, bins), dc.get() == t);
  }
  {
    const int n = 700000 + r.range(0, 99999);
    auto p = ints<uint8_t>(r, n, 0, 255);
    std::vector<uint32_t> counts(256, 0), t = counts;
    tilecc::host::launch(cdiv(n, 2048), a2_histogram_u8<2048>, p.data(), t.data(), n);
    buffer<uint8_t> dp(p);
    buffer<uint32_t> dc(counts);
    TILECC_CUDA_CHECK(launch_a2_histogram_u8_2048(dim3(cdiv(n, 2048)), nullptr, P(dp), dc.as<unsigned>(), n));
    tt::gpu::sync();
    rep.expect(S("50 histogram uint8 256 bins n=%ld", n), dc.get() == t);
  }
  {
    const int n = 5000 + r.range(0, 999), nb = 13;
    auto keys = ints<int>(r, n, 0, nb - 1);
    std::vector<int> fill(nb, 0), slot(n, -1);
    buffer<int> dk(keys), df(fill), ds(slot);
    TILECC_CUDA_CHECK(launch_a2_bucket_slots_256(dim3(cdiv(n, 256)), nullptr, P(dk), P(df), P(ds), n));
    tt::gpu::sync();
    auto g = ds.get();
    auto gf = df.get();
    std::vector<std::vector<int>> seen(nb);
    for (int i = 0; i < n; ++i) seen[keys[i]].push_back(g[i]);
    bool ok = true;
    for (int b = 0; b < nb; ++b) {
      std::sort(seen[b].begin(), seen[b].end());
      for (int j = 0; j < int(seen[b].size()); ++j) ok &= seen[b][j] == j;
      ok &= gf[b] == int(seen[b].size());
    }
    rep.expect(S("50 atomic_add old values as slots, n=%ld", n), ok);
  }
}

static void prefix(tt::report& rep, tt::rng& r) {
  {
    const int rows = 5 + r.range(0, 10), n = 700 + r.range(0, 324);
    const int64_t stride = n + r.range(0, 5);
    auto x = tt::random_vector<float>(r, rows * stride);
    std::vector<float> inc(x.size(), tt::poison<float>()), exc = inc, ti = inc, te = inc;
    tilecc::host::launch(rows, a2_cumsum_row<1024>, x.data(), ti.data(), te.data(), n, stride);
    buffer<float> dx(x), di(inc), de(exc);
    TILECC_CUDA_CHECK(launch_a2_cumsum_row_1024(dim3(rows), nullptr, P(dx), P(di), P(de), n, stride));
    tt::gpu::sync();
    rep.compare_outputs(S("51 cumsum rows fp32 %ldx%ld inclusive", rows, n), di.get(), ti, 1e-5);
    rep.compare_outputs(S("51 cumsum rows fp32 %ldx%ld exclusive", rows, n), de.get(), te, 1e-5);
  }
  {
    const int rows = 3 + r.range(0, 5), n = 2000 + r.range(0, 3000);
    auto x = ints<int>(r, std::size_t(rows) * n, -2000000000, 2000000000);
    std::vector<int64_t> y(x.size(), -1), t = y;
    tilecc::host::launch(rows, a2_cumsum_long<512>, x.data(), t.data(), n, int64_t{n});
    buffer<int> dx(x);
    buffer<int64_t> dy(y);
    TILECC_CUDA_CHECK(launch_a2_cumsum_long_512(dim3(rows), nullptr, P(dx), P(dy), n, n));
    tt::gpu::sync();
    rep.expect(S("51 cumsum long rows int32->int64 %ldx%ld exact", rows, n), dy.get() == t);
  }
  {
    const int rows = 10 + r.range(0, 20), n = 150 + r.range(0, 100);
    const int64_t stride = 256;
    auto x = tt::random_vector<float>(r, rows * stride);
    std::vector<float> out(x.size(), tt::poison<float>()), t = out;
    std::vector<int> cnt(rows, -1), tc = cnt;
    tilecc::host::launch(rows, a2_compact<256>, x.data(), t.data(), tc.data(), n, stride, 0.5f);
    buffer<float> dx(x), dout(out);
    buffer<int> dc(cnt);
    TILECC_CUDA_CHECK(launch_a2_compact_256(dim3(rows), nullptr, P(dx), P(dout), P(dc), n, stride, 0.5f));
    tt::gpu::sync();
    rep.compare_outputs(S("51 compaction cumsum(mask)-1 %ldx%ld", rows, n), dout.get(), t, 0.0);
    rep.expect("51 compaction counts", dc.get() == tc);
  }
  {
    const int rows = 20 + r.range(0, 20), n = 33 + r.range(0, 31);
    auto x = tt::random_vector<float>(r, std::size_t(rows) * n);
    std::vector<float> y(x.size(), tt::poison<float>()), t = y;
    tilecc::host::launch(cdiv(rows, 8), a2_running_max<8, 64>, x.data(), t.data(), rows, n);
    buffer<float> dx(x), dy(y);
    TILECC_CUDA_CHECK(launch_a2_running_max_8_64(dim3(cdiv(rows, 8)), nullptr, P(dx), P(dy), rows, n));
    tt::gpu::sync();
    rep.compare_outputs(S("51 running max scan<1> lambda %ldx%ld", rows, n), dy.get(), t, 0.0);
  }
}

// 52: persistent matmul (fewer programs than tiles); 53: dropout with a user-written hash.
static void persistent_and_dropout(tt::report& rep, tt::rng& r) {
  using tilecc::half;
  {
    const int M = 300 + r.range(0, 300), N = 200 + r.range(0, 300), K = 100 + r.range(0, 200), programs = 3 + r.range(0, 4);
    auto a = tt::random_vector<half>(r, std::size_t(M) * K), b = tt::random_vector<half>(r, std::size_t(K) * N);
    std::vector<half> c(std::size_t(M) * N, tt::poison<half>()), tc = c;
    tilecc::host::launch(programs, a2_matmul_persistent<128, 128, 64, 8>, a.data(), b.data(), tc.data(), M, N, K, K, N, N);
    buffer<half> da(a), db(b), dc(c);
    TILECC_CUDA_CHECK(launch_a2_matmul_persistent_128_128_64_8(dim3(programs), nullptr, P(da), P(db), P(dc), M, N, K, K, N, N));
    tt::gpu::sync();
    rep.compare_outputs(S("52 persistent matmul fp16 %ldx%ldx%ld, %ld programs", M, N, K, programs), dc.get(), tc, 2e-3);
  }
  {
    const int n = 50000 + r.range(0, 9999);
    auto x = tt::random_vector<float>(r, n);
    std::vector<float> out(n + 2, tt::poison<float>()), t = out;
    const unsigned seed = static_cast<unsigned>(r.range(0, 1 << 30));
    tilecc::host::launch(cdiv(n, 1024), a2_seeded_dropout<1024>, x.data(), t.data(), n, 0.3f, seed);
    buffer<float> dx(x), dout(out);
    TILECC_CUDA_CHECK(launch_a2_seeded_dropout_1024(dim3(cdiv(n, 1024)), nullptr, P(dx), P(dout), n, 0.3f, seed));
    tt::gpu::sync();
    rep.compare_outputs(S("53 dropout (uint32 hash) n=%ld", n), dout.get(), t, 0.0);
  }
}

int main() {
  tt::gpu::require_gpu();
  tt::report rep("audit 2: real-user kernels (GPU launcher vs host twin)");
  tt::rng r;
  vector_add(rep, r);
  softmax_case<float, 1024, 4>(rep, r, 37 + r.range(0, 20), 700 + r.range(0, 324), 5, launch_a2_softmax_float_1024_4);
  softmax_case<tilecc::half, 4096, 8>(rep, r, 9 + r.range(0, 9), 3000 + r.range(0, 1096), 4, launch_a2_softmax_half_4096_8);
  softmax_case<tilecc::bfloat16, 256, 2>(rep, r, 50 + r.range(0, 50), 129 + r.range(0, 127), 7, launch_a2_softmax_bfloat16_256_2);
  matmul(rep, r);
  layernorm_case<tilecc::half, 512, 16, 1024, 32, 128>(rep, r, 60 + r.range(0, 20), 900 + r.range(0, 124), launch_a2_ln_fwd_half_512,
                                                      launch_a2_ln_bwd_dx_fused_half_16_1024, launch_a2_ln_bwd_dwdb_half_32_128);
  layernorm_case<float, 1024, 8, 256, 8, 64>(rep, r, 100 + r.range(0, 50), 150 + r.range(0, 106), launch_a2_ln_fwd_float_1024,
                                            launch_a2_ln_bwd_dx_fused_float_8_256, launch_a2_ln_bwd_dwdb_float_8_64);
  attention_case<1>(rep, r, 2, 3, 150 + r.range(0, 200), launch_a2_attn_fwd_64_128_64_1);
  attention_case<3>(rep, r, 1, 2, 250 + r.range(0, 200), launch_a2_attn_fwd_64_128_64_3);
  rmsnorm_case<tilecc::bfloat16, 1024>(rep, r, 30 + r.range(0, 20), 900 + r.range(0, 124), launch_a2_rmsnorm_fwd_bfloat16_1024, true);
  rmsnorm_case<tilecc::half, 4096>(rep, r, 5 + r.range(0, 5), 3000 + r.range(0, 1096), launch_a2_rmsnorm_fwd_half_4096, false);
  rmsnorm_case<float, 128>(rep, r, 90 + r.range(0, 20), 65 + r.range(0, 63), launch_a2_rmsnorm_fwd_float_128, false);
  rope_case<tilecc::half, 16, 64>(rep, r, 30 + r.range(0, 20), 12, 4, 96, launch_a2_rope_half_16_64);
  rope_case<tilecc::bfloat16, 32, 64>(rep, r, 15 + r.range(0, 10), 32, 8, 128, launch_a2_rope_bfloat16_32_64);
  gelu_fwd_case<float, 1024>(rep, r, 10000 + r.range(0, 999), launch_a2_gelu_fwd_float_1024);
  gelu_fwd_case<tilecc::bfloat16, 2048>(rep, r, 4000 + r.range(0, 999), launch_a2_gelu_fwd_bfloat16_2048);
  gelu_fwd_case<tilecc::half, 512>(rep, r, 500 + r.range(0, 99), launch_a2_gelu_fwd_half_512);
  gelu_bwd_case<float, 1024>(rep, r, 10000 + r.range(0, 999), launch_a2_gelu_bwd_float_1024);
  gelu_bwd_case<tilecc::bfloat16, 1024>(rep, r, 4000 + r.range(0, 999), launch_a2_gelu_bwd_bfloat16_1024);
  xent_case<float, 1024>(rep, r, 20 + r.range(0, 10), 5000 + r.range(0, 99), launch_a2_xent_fwd_float_1024, launch_a2_xent_bwd_float_1024);
  xent_case<tilecc::bfloat16, 4096>(rep, r, 8 + r.range(0, 8), 32000 + r.range(0, 999), launch_a2_xent_fwd_bfloat16_4096,
                                    launch_a2_xent_bwd_bfloat16_4096);
  argmax(rep, r);
  gemv(rep, r);
  bmm_case<tilecc::half, 64, 64, 32>(rep, r, 3, 80 + r.range(0, 60), 50 + r.range(0, 90), 40 + r.range(0, 40), false, launch_a2_bmm_half_64_64_32);
  bmm_case<tilecc::half, 64, 64, 32>(rep, r, 2, 65, 129, 33, true, launch_a2_bmm_half_64_64_32);
  bmm_case<tilecc::bfloat16, 128, 64, 64>(rep, r, 4, 100 + r.range(0, 60), 64, 150 + r.range(0, 100), false,
                                          launch_a2_bmm_bfloat16_128_64_64);
  bmm_ptr(rep, r);
  w8a16_case<64, 64, 64, true>(rep, r, 90 + r.range(0, 40), 130 + r.range(0, 40), 180 + r.range(0, 40), launch_a2_w8a16_64_64_64_true);
  w8a16_case<16, 128, 32, false>(rep, r, 1 + r.range(0, 15), 250 + r.range(0, 100), 60 + r.range(0, 40), launch_a2_w8a16_16_128_32_false);
  w8a8(rep, r);
  colsum(rep, r);
  histogram(rep, r);
  prefix(rep, r);
  persistent_and_dropout(rep, r);
  return rep.finish();
}
