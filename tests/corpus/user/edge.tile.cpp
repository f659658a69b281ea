// Loop shapes and dot placements beyond the plain K loop (user-kernel probe set).
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// 17. A K loop that runs backwards (k from the last block down to 0, `>=` and `-=`), pointer
//     tiles stepped back by -= each iteration; fp16 in, fp32 out. K may be 0.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_reverse_k(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  const int last = (cdiv(K, BK) - 1) * BK;
  auto a_ptrs = a + cast<int64_t>(col(rm)) * K + row(last + rk);
  auto b_ptrs = b + cast<int64_t>(col(last + rk)) * N + row(rn);
  auto acc = zeros<float, BM, BN>();
  for (int k = last; k >= 0; k -= BK) {
    auto x = load(a_ptrs, (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y = load(b_ptrs, (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
    a_ptrs -= BK;
    b_ptrs -= int64_t{BK} * N;
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

template void gemm_reverse_k<64, 64, 32>(const half*, const half*, float*, int, int, int);

// 18. Split-K with the split count a run-time value: program_id(2) takes K blocks z, z + splits,
//     ... (a run-time loop step), partial products added into c with float atomics.
template <int BM, int BN, int BK>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void gemm_splitk_strided(const bfloat16* a, const bfloat16* b, float* c, int M, int N, int K, int splits) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rn = program_id(1) * BN + arange<BN>();
  auto rk = arange<BK>();
  auto acc = zeros<float, BM, BN>();
  for (int k = program_id(2) * BK; k < K; k += splits * BK) {
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  atomic_add(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

template void gemm_splitk_strided<128, 128, 64>(const bfloat16*, const bfloat16*, float*, int, int, int, int);

// 19. Fused two-layer MLP (back-to-back GEMMs): h = relu(x · w1) for BM rows and the whole hidden
//     width HID, kept in registers, then y[:, n0:n0+BN] = h · w2[:, n0:n0+BN] for every column
//     block in a second loop whose A operand is loop-invariant.
template <int BM, int BK, int HID, int BN>
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void fused_mlp(const half* x, const half* w1, const half* w2, half* y, int M, int K, int N) {
  auto rm = program_id(0) * BM + arange<BM>();
  auto rk = arange<BK>();
  auto rh = arange<HID>();
  auto h = zeros<float, BM, HID>();
  for (int k = 0; k < K; k += BK) {
    auto xt = load(x + cast<int64_t>(col(rm)) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto wt = load(w1 + cast<int64_t>(col(k + rk)) * HID + row(rh), col(k + rk) < K, 0.0f);
    h = dot(xt, wt, h);
  }
  auto hh = cast<half>(maximum(h, 0.0f));
  for (int n0 = 0; n0 < N; n0 += BN) {
    auto rn = n0 + arange<BN>();
    auto w = load(w2 + col(rh) * N + row(rn), row(rn) < N, 0.0f);
    store(y + cast<int64_t>(col(rm)) * N + row(rn), cast<half>(dot(hh, w)), (col(rm) < M) & (row(rn) < N));
  }
}

template void fused_mlp<64, 32, 64, 64>(const half*, const half*, const half*, half*, int, int, int);

// 20. Plain IEEE fp32 dot (no tf32) and an int8 dot with A given transposed (at[K][M]).
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void sgemm_ieee(const float* a, const float* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 32 + arange<32>();
  auto rn = program_id(1) * 32 + arange<32>();
  auto rk = arange<16>();
  auto acc = zeros<float, 32, 32>();
  for (int k = 0; k < K; k += 16) {
    auto x = load(a + col(rm) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y = load(b + col(k + rk) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

TILECC_KERNEL(num_warps = 4, num_stages = 3)
void igemm_tn(const int8_t* at, const int8_t* b, int* c, int M, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<int, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto x = load(at + (k + col(rk)) * M + row(rm), (k + col(rk) < K) & (row(rm) < M), 0);  // [32][64]
    auto y = load(b + (k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0);   // [32][64]
    acc = dot(trans(x), y, acc);
  }
  store(c + col(rm) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// 21. Decode attention with grouped query heads packed as the M dimension: the GROUP query heads
//     that share one K/V head form a [16][D] tile (rows past GROUP masked), the cache length per
//     sequence comes from memory, fp32 output.
template <int GROUP, int BN, int D>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void decode_gqa(const half* q, const half* kcache, const half* vcache, const int* seqlens, float* out, int HKV,
                int max_len, float sm_scale) {
  const int b = program_id(0) / HKV, hkv = program_id(0) % HKV;
  const int len = load(seqlens + b);
  auto g = arange<16>();
  auto d = arange<D>();
  auto qmask = col(g) < GROUP;
  const int64_t qrow = (int64_t{b} * HKV + hkv) * GROUP;
  auto qt = load(q + (qrow + cast<int64_t>(col(g))) * D + row(d), qmask, 0.0f);
  const int64_t kv = (int64_t{b} * HKV + hkv) * max_len * D;
  auto m_i = full<float, 16>(-INFINITY);
  auto l_i = zeros<float, 16>();
  auto acc = zeros<float, 16, D>();
  for (int s0 = 0; s0 < len; s0 += BN) {
    auto n = s0 + arange<BN>();
    auto kt = load(kcache + kv + cast<int64_t>(col(n)) * D + row(d), col(n) < len, 0.0f);
    auto vt = load(vcache + kv + cast<int64_t>(col(n)) * D + row(d), col(n) < len, 0.0f);
    auto s = where(row(n) < len, dot(qt, trans(kt)) * sm_scale, -INFINITY);
    auto m_new = maximum(m_i, max<1>(s));
    auto alpha = exp(m_i - m_new);
    auto p = exp(s - col(m_new));
    l_i = l_i * alpha + sum<1>(p);
    acc = dot(cast<half>(p), vt, acc * col(alpha));
    m_i = m_new;
  }
  store(out + (qrow + cast<int64_t>(col(g))) * D + row(d), acc / col(l_i), qmask);
}

template void decode_gqa<4, 64, 128>(const half*, const half*, const half*, const int*, float*, int, int, float);
template void decode_gqa<8, 128, 64>(const half*, const half*, const half*, const int*, float*, int, int, float);
