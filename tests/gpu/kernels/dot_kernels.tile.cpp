// dot() in every form the language allows, small enough to check exhaustively against the host
// twin (tests/gpu/gpu_dot.cpp): each element type, tf32, shapes from 16x16x16 up, 1 to 8 warps
// (warp grids along M and N, replication when the tile is smaller than the warps), operands
// computed or transposed before the dot, and chained accumulators.
#include <tilecc/tile.hpp>

#include <type_traits>
using namespace tilecc;

template <class T>
using acc_of = std::conditional_t<std::is_same_v<T, int8_t>, int, float>;

// c[M, N] = a[M, K] · b[K, N], all row-major and contiguous.
template <class T, int M, int N, int K>
TILECC_KERNEL(num_warps = 4)
void dot_plain(const T* a, const T* b, acc_of<T>* c) {
  auto rm = arange<M>();
  auto rn = arange<N>();
  auto rk = arange<K>();
  auto x = load(a + col(rm) * K + row(rk));
  auto y = load(b + col(rk) * N + row(rn));
  store(c + col(rm) * N + row(rn), dot(x, y));
}

template void dot_plain<half, 16, 16, 16>(const half*, const half*, float*);
template void dot_plain<half, 64, 32, 48 + 16>(const half*, const half*, float*);
template void dot_plain<bfloat16, 32, 128, 32>(const bfloat16*, const bfloat16*, float*);
template void dot_plain<float, 32, 32, 32>(const float*, const float*, float*);
template void dot_plain<int8_t, 32, 64, 16>(const int8_t*, const int8_t*, int*);
template void dot_plain<int8_t, 64, 16, 64>(const int8_t*, const int8_t*, int*);

// TF32 tensor cores, asked for.
TILECC_KERNEL(num_warps = 4)
void dot_tf32(const float* a, const float* b, float* c) {
  auto r64 = arange<64>();
  auto r32 = arange<32>();
  auto x = load(a + col(r64) * 32 + row(r32));
  auto y = load(b + col(r32) * 64 + row(r64));
  store(c + col(r64) * 64 + row(r64), dot<precision::tf32>(x, y));
}

// One warp and eight warps on the same problem; operands computed before the dot.
TILECC_KERNEL(num_warps = 1)
void dot_one_warp(const half* a, const half* b, float* c) {
  auto r = arange<32>();
  auto x = load(a + col(r) * 32 + row(r));
  auto y = load(b + col(r) * 32 + row(r));
  store(c + col(r) * 32 + row(r), dot(x * cast<half>(2.0f), y + y));
}

TILECC_KERNEL(num_warps = 8)
void dot_eight_warps(const half* a, const half* b, float* c) {
  auto rm = arange<128>();
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto x = load(a + col(rm) * 32 + row(rk));
  auto y = load(b + col(rk) * 64 + row(rn));
  store(c + col(rm) * 64 + row(rn), dot(x, y));
}

// a given as [K, M] (transposed on the way in); b transposed from [N, K]; chained:
// c = a·b + (a·b)·d with the first product converted to half for the second dot.
TILECC_KERNEL(num_warps = 4)
void dot_trans_chain(const half* at, const half* bt, const half* d, float* c) {
  auto r64 = arange<64>();
  auto r32 = arange<32>();
  auto x = trans(load(at + col(r32) * 64 + row(r64)));  // [64, 32]
  auto y = trans(load(bt + col(r64) * 32 + row(r32)));  // [32, 64]
  auto z = load(d + col(r64) * 64 + row(r64));          // [64, 64]
  auto p = dot(x, y);
  store(c + col(r64) * 64 + row(r64), dot(cast<half>(p), z, p));
}

// A K loop with a carried accumulator and masked, ragged edges (M, N, K at run time).
TILECC_KERNEL(num_warps = 4)
void dot_loop(const bfloat16* a, const bfloat16* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto x = load(a + col(rm) * K + row(k + rk), (col(rm) < M) & (row(k + rk) < K), 0.0f);
    auto y = load(b + col(k + rk) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + col(rm) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// A GEMM through block pointers (Triton's block-pointer tutorial): on sm_90a with aligned
// arguments its loads are TMA boxes, zero past the edges.
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dot_block_gemm(const bfloat16* a, const bfloat16* b, float* c, int M, int N, int K, int64_t lda, int64_t ldb, int64_t ldc) {
  const int pid = program_id(0), grid_n = cdiv(N, 128);
  const int pid_m = pid / grid_n, pid_n = pid % grid_n;
  auto pa = make_block_ptr<128, 64>(a, {M, K}, {lda, 1}, {pid_m * 128, 0});
  auto pb = make_block_ptr<64, 128>(b, {K, N}, {ldb, 1}, {0, pid_n * 128});
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    acc = dot(load(pa), load(pb), acc);
    pa = advance(pa, {0, 64});
    pb = advance(pb, {64, 0});
  }
  store(make_block_ptr<128, 128>(c, {M, N}, {ldc, 1}, {pid_m * 128, pid_n * 128}), acc);
}

// Sixteen warps, warp-specialised on sm_90a: a producer warp group beside four consumer warp
// groups (640 threads, launched with 96 registers each; setmaxnreg moves the producer's spare
// ones to the consumers, never more than the pool holds: asking for more hangs).
TILECC_KERNEL(num_warps = 16, num_stages = 3, warp_specialize = true)
void dot_wide_gemm(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 256 + arange<256>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 256, 128>();
  for (int k = 0; k < K; k += 64) {
    auto a_tile = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto b_tile = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(a_tile, b_tile, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// Aᵀ·B with A given as its transpose at[K][M] (a weight gradient's Xᵀ·dY): dot(trans(x), ...)
// keeps the loaded [K][M] tile as it lies in shared memory (M-major A: TMA boxes on sm_90a with
// aligned arguments, read by a transposed-A wgmma; cp.async and ldmatrix.trans on sm_80).
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dot_at_gemm(const half* at, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto x = load(at + cast<int64_t>(k + col(rk)) * M + row(rm), (k + col(rk) < K) & (row(rm) < M), 0.0f);  // [64][128]
    auto b_tile = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(trans(x), b_tile, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// Operands whose unit stride runs along the tile's axis 0, through pointers as Triton users write
// them: x·Wᵀ for a weight W[N][K] read as [64][128] tiles (nn.Linear), and A given as at[K][M]
// read as [128][64] tiles. Each lies transposed in shared memory ([128][64] K-major B, [64][128]
// M-major A): TMA boxes in the buffer's order on sm_90a with aligned arguments (K, M multiples
// of 8), cp.async on sm_80; odd sizes: the general kernel.
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dot_wt_gemm(const half* a, const half* w, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto x = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto wt = load(w + (k + col(rk)) + cast<int64_t>(row(rn)) * K, (k + col(rk) < K) & (row(rn) < N), 0.0f);  // [64][128]
    acc = dot(x, wt, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// A K loop counting down (from the last, ragged block to the first): the frontend runs its
// negation up, so it is pipelined as the ascending loop is (TMA on sm_90a, cp.async on sm_80).
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dot_down_gemm(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = (cdiv(K, 64) - 1) * 64; k >= 0; k -= 64) {
    auto x = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto y = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// Block-sparse: a K block contributes only where a mask in memory says so. The loads under the
// `if` move out of it, masked by its condition, and are copied ahead (cp.async on both paths),
// the mask read for the later iteration.
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dot_sparse_gemm(const half* a, const half* b, const int* block_mask, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  const int kblocks = cdiv(K, 64);
  auto acc = zeros<float, 128, 128>();
  for (int kb = 0; kb < kblocks; ++kb) {
    if (load(block_mask + program_id(0) * kblocks + kb) != 0) {
      const int k = kb * 64;
      auto x = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
      auto y = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
      acc = dot(x, y, acc);
    }
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// K blocks taken from a list in memory (any order, repeats allowed): the operands' addresses
// depend on an index loaded in the loop, read ahead for the copies (TMA boxes on sm_90a, their
// starts checked per program before the loop).
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dot_listed_gemm(const half* a, const half* b, const int* blocks, int nblocks, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int j = 0; j < nblocks; ++j) {
    const int k = load(blocks + j) * 64;
    auto x = load(a + cast<int64_t>(col(rm)) * K + (k + row(rk)), (col(rm) < M) & (k + row(rk) < K), 0.0f);
    auto y = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dot_am_gemm(const half* at, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 128 + arange<128>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<64>();
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K; k += 64) {
    auto x = load(at + col(rm) + cast<int64_t>(k + row(rk)) * M, (col(rm) < M) & (k + row(rk) < K), 0.0f);  // [128][64]
    auto b_tile = load(b + cast<int64_t>(k + col(rk)) * N + row(rn), (k + col(rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, b_tile, acc);
  }
  store(c + cast<int64_t>(col(rm)) * N + row(rn), acc, (col(rm) < M) & (row(rn) < N));
}

// Pipelined loops (aligned pointers, K a multiple of 16): running row maxima of q·kᵀ over key
// blocks (q staged once, k copied ahead and read transposed, a reduction in shared memory
// beside the rings); int8 with both operands copied ahead; IEEE fp32 with one operand copied
// ahead and the other (read transposed, no tensor cores) staged from registers.
TILECC_KERNEL(num_warps = 4, num_stages = 2)
void dot_scores(TILECC_ALIGNED(16) const half* q, TILECC_ALIGNED(16) const half* k, float* out, int n) {
  auto r = arange<64>();
  auto rj = arange<32>();
  auto x = load(q + col(r) * 64 + row(r));
  auto best = full<float, 64>(-INFINITY);
  for (int j = 0; j < n; j += 32) {
    auto kt = load(k + col(j + rj) * 64 + row(r), col(j + rj) < n, 0.0f);
    best = maximum(best, max<1>(dot(x, trans(kt))));
  }
  store(out + r, best);
}

template <class T>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void dot_ahead(TILECC_ALIGNED(16) const T* a, TILECC_ALIGNED(16) const T* bt, acc_of<T>* c, TILECC_MULTIPLE_OF(16) int K) {
  auto r = arange<32>();
  auto rk = arange<32>();
  auto acc = zeros<acc_of<T>, 32, 32>();
  for (int k = 0; k < K; k += 32) {
    auto x = load(a + col(r) * K + row(k + rk), row(k + rk) < K, 0);
    auto y = load(bt + col(r) * K + row(k + rk), row(k + rk) < K, 0);
    acc = dot(x, trans(y), acc);
  }
  store(c + col(r) * 32 + row(r), acc);
}

template void dot_ahead<int8_t>(const int8_t*, const int8_t*, int*, int);
template void dot_ahead<float>(const float*, const float*, float*, int);

// Attention as the Triton tutorial's first version writes it, K read transposed through
// pointers ([D][64] tiles whose unit stride runs along axis 0): on sm_90a its TMA box is taken
// in the transposed buffer's order ([64][D]), the second dot takes P from registers. Exact
// exp2 (not fast_exp2): the host twin computes the same.
template <int D>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void dot_attention_kt(const half* q, const half* k, const half* v, float* out, int seq, float scale) {
  auto offs_m = program_id(0) * 128 + arange<128>();
  auto offs_d = arange<D>();
  auto offs_n = arange<64>();
  auto qt = load(q + cast<int64_t>(col(offs_m)) * D + row(offs_d), col(offs_m) < seq, 0.0f);
  auto m_i = full<float, 128>(-INFINITY);
  auto l_i = zeros<float, 128>();
  auto acc = zeros<float, 128, D>();
  for (int start = 0; start < seq; start += 64) {
    auto kt = load(k + col(offs_d) + cast<int64_t>(row(start + offs_n)) * D, row(start + offs_n) < seq, 0.0f);  // [D][64]
    auto s = where(row(start + offs_n) < seq, dot(qt, kt) * scale, -INFINITY);
    auto m_new = maximum(m_i, max<1>(s));
    auto alpha = exp2(m_i - m_new);
    auto p = exp2(s - col(m_new));
    l_i = l_i * alpha + sum<1>(p);
    auto vt = load(v + cast<int64_t>(col(start + offs_n)) * D + row(offs_d), col(start + offs_n) < seq, 0.0f);
    acc = dot(cast<half>(p), vt, acc * col(alpha));
    m_i = m_new;
  }
  store(out + cast<int64_t>(col(offs_m)) * D + row(offs_d), acc / col(l_i), col(offs_m) < seq);
}

template void dot_attention_kt<64>(const half*, const half*, const half*, float*, int, float);
template void dot_attention_kt<128>(const half*, const half*, const half*, float*, int, float);

// Two K loops in a row into one accumulator (the first SPLIT blocks, then the rest): on sm_90a's
// TMA variant they read one ring, numbered on from one loop to the next, either warp-specialised
// (the producer copies both loops' boxes in one stream; the consumers release the first loop's
// last slot after its final wait) or chained (the first loop's last iterations copy the second
// loop's first boxes). K decides the trip counts: 0, 1 and fewer than the stages in either loop.
template <int SPLIT, bool WS>
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = WS)
void dot_two_loops(const half* a, const half* b, float* c, int M, int N, int K) {
  const int pid_m = program_id(0), pid_n = program_id(1);
  auto rm = (pid_m * 128 + arange<128>()) % M;
  auto rn = pid_n * 128 + arange<128>();
  auto rk = arange<64>();
  const int K1 = min(K, SPLIT * 64);
  auto acc = zeros<float, 128, 128>();
  for (int k = 0; k < K1; k += 64) {
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), row(k + rk) < K, 0.0f);
    auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  for (int k = K1; k < K; k += 64) {
    auto x = load(a + cast<int64_t>(col(rm)) * K + row(k + rk), row(k + rk) < K, 0.0f);
    auto y = load(b + cast<int64_t>(col(k + rk)) * N + row(rn), (col(k + rk) < K) & (row(rn) < N), 0.0f);
    acc = dot(x, y, acc);
  }
  auto cm = pid_m * 128 + arange<128>();
  store(c + cast<int64_t>(col(cm)) * N + row(rn), acc, (col(cm) < M) & (row(rn) < N));
}

template void dot_two_loops<1, true>(const half*, const half*, float*, int, int, int);
template void dot_two_loops<3, false>(const half*, const half*, float*, int, int, int);
