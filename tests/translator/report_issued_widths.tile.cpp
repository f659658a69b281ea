// A variant assumes only what the widths its layouts issue need. The axis analysis proves
// 16-byte stores of a row statistic, but the statistic's layout (rows of a dot's accumulator)
// holds one element per thread, so the store is issued 4 bytes at a time whatever `stats` and
// `S` are: assuming them would only send calls with an odd S to the general kernel (user
// report: an attention that also writes its log-sum-exp ran with 2-byte loads). And `p - n`
// keeps p's alignment (it is p + (-n)).
// ARGS: --emit=report
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel row_stats_aligned (row_stats), 4 warps, for sm_80
// CHECK-NEXT: variant: when a is aligned to 16, b is aligned to 16, c is aligned to 16{{$}}
// CHECK: store at line {{[0-9]+}}: 8 x f16 = 16 bytes per access
// CHECK-NEXT: store at line {{[0-9]+}}: 1 x f32 = 4 bytes per access (the address is only known to be a multiple of 4 bytes)
TILECC_KERNEL(num_warps = 4)
void row_stats(const half* a, const half* b, half* c, float* stats, int S) {
  const int64_t row0 = int64_t{program_id(0)} * 64;
  auto r = arange<64>();
  auto k = arange<64>();
  auto s = dot(load(a + (row0 + col(r)) * 64 + row(k)), load(b + col(k) * 64 + row(k)));
  auto m = max<1>(s);
  store(c + (row0 + col(r)) * 64 + row(k), cast<half>(s - col(m)));
  store(stats + int64_t{program_id(1)} * S + row0 + r, m);
}

// Where the layout does issue the proven width (a row of a plain load, converted through shared
// memory for its store), the assumptions stay.
// CHECK-LABEL: kernel row_max_aligned (row_max), 4 warps, for sm_80
// CHECK-NEXT: variant: when x is aligned to 16, y is aligned to 16, stats is aligned to 16, S is a multiple of 4
// CHECK: store at line {{[0-9]+}}: 4 x f32 = 16 bytes per access
// CHECK-NEXT: store at line {{[0-9]+}}: 4 x f32 = 16 bytes per access
TILECC_KERNEL(num_warps = 4)
void row_max(const float* x, float* y, float* stats, int S) {
  const int64_t row0 = int64_t{program_id(0)} * 64;
  auto r = arange<64>();
  auto c = arange<256>();
  auto t = load(x + (row0 + col(r)) * 256 + row(c));
  auto m = max<1>(t);
  store(y + (row0 + col(r)) * 256 + row(c), t - col(m));
  store(stats + int64_t{program_id(1)} * S + row0 + r, m);
}

// CHECK-LABEL: kernel back_rows_aligned (back_rows), 4 warps, for sm_80
// CHECK-NEXT: variant: when b is aligned to 16, c is aligned to 16, N is a multiple of 8
// CHECK: load at line {{[0-9]+}}: 8 x f16 = 16 bytes per access
// CHECK-NEXT: load at line {{[0-9]+}}: 8 x f16 = 16 bytes per access
TILECC_KERNEL(num_warps = 4)
void back_rows(const half* b, float* c, int N) {
  auto rn = arange<64>();
  auto p = b + int64_t{3} * N + rn;
  auto x = load(p - int64_t{2} * N);
  for (int i = 0; i < 2; ++i) p -= int64_t{8} * N;
  store(c + rn, cast<float>(x + load(p)));
}

// An f32 accumulator's rows are stored two elements (8 bytes) at a time: the variant assumes c
// 8-byte aligned, not 16 (the TMA variant, whose epilogue may store boxes, would keep 16).
// CHECK-LABEL: kernel gemm_f32out_aligned (gemm_f32out), 4 warps, for sm_80
// CHECK-NEXT: variant: when a is aligned to 16, b is aligned to 16, c is aligned to 8, N is a multiple of 8, K is a multiple of 8{{$}}
// CHECK: store at line {{[0-9]+}}: 2 x f32 = 8 bytes per access (the address is only known to be a multiple of 8 bytes)
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gemm_f32out(const half* a, const half* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32)
    acc = dot(load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f),
              load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f), acc);
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
