// Data-movement and elementwise kernels a user porting Triton/CUDA code writes (probe set).
#include <tilecc/tile.hpp>

#include <cmath>
using namespace tilecc;

// 14. Transpose out[N][M] = in[M][N] with 64-bit sizes, a non-square tile, a persistent
//     grid-stride loop over tiles (int64 induction variable) and an inner loop over the two
//     halves of each tile's columns (nested loops).
template <class T, int TM, int TN>
TILECC_KERNEL(num_warps = 4)
void transpose_persistent(const T* in, T* out, int64_t M, int64_t N) {
  const int64_t tiles_n = cdiv(N, 2 * TN);
  const int64_t tiles = cdiv(M, TM) * tiles_n;
  for (int64_t t = program_id(0); t < tiles; t += num_programs(0)) {
    const int64_t tm = t / tiles_n, tn = t % tiles_n;
    auto rm = tm * TM + arange<TM>();
    for (int j = 0; j < 2; ++j) {
      auto rn = (2 * tn + j) * TN + arange<TN>();
      auto v = load(in + col(rm) * N + row(rn), (col(rm) < M) & (row(rn) < N));
      store(out + col(rn) * M + row(rm), trans(v), (col(rn) < N) & (row(rm) < M));
    }
  }
}

template void transpose_persistent<half, 32, 128>(const half*, half*, int64_t, int64_t);
template void transpose_persistent<float, 64, 16>(const float*, float*, int64_t, int64_t);
template void transpose_persistent<int8_t, 64, 64>(const int8_t*, int8_t*, int64_t, int64_t);

// 15. Embedding forward (gather rows of a table by an int64 index tensor, scaled) and backward
//     (scatter-add of the gradient rows into the table's gradient with float atomics;
//     duplicate indices collide). D <= BD, rows past n masked.
template <int BR, int BD>
TILECC_KERNEL(num_warps = 4)
void embedding_fwd_bwd(const float* table, const int64_t* idx, const float* grad, float* out, float* grad_table, int n,
                       int D, float scale) {
  auto rows = program_id(0) * BR + arange<BR>();
  auto rmask = rows < n;
  auto ids = load(idx + rows, rmask, 0);
  auto cols = arange<BD>();
  auto m = col(rmask) & row(cols < D);
  auto v = load(table + col(ids) * D + row(cols), m, 0.0f);
  store(out + cast<int64_t>(col(rows)) * D + row(cols), v * scale, m);
  auto g = load(grad + cast<int64_t>(col(rows)) * D + row(cols), m, 0.0f);
  atomic_add(grad_table + col(ids) * D + row(cols), g, m);
}

template void embedding_fwd_bwd<16, 128>(const float*, const int64_t*, const float*, float*, float*, int, int, float);
template void embedding_fwd_bwd<4, 512>(const float*, const int64_t*, const float*, float*, float*, int, int, float);

// 16. Elementwise with an int64 size: masked loads with non-zero `other` values, a chain of
//     where() selects (clamp, piecewise function, NaN replacement), bit flags in uint8, and a
//     per-program sum that sees the `other` values of the masked lanes.
template <int BLOCK>
TILECC_KERNEL(num_warps = 8)
void piecewise(const float* x, const half* y, float* out, uint8_t* flags, float* partial, int64_t n, float lo, float hi) {
  auto offs = int64_t{program_id(0)} * BLOCK + arange<BLOCK>();
  auto m = offs < n;
  auto a = load(x + offs, m, 1.0f);
  auto b = cast<float>(load(y + offs, m, -2.0f));
  auto clamped = where(a < lo, lo, where(a > hi, hi, a));
  auto sel = where(b > 0.0f, clamped * b, where(b < -1.0f, exp(b), -clamped));
  sel = where(sel != sel, 0.0f, sel);
  store(out + offs, sel, m);
  auto f = cast<uint8_t>(a > 0.0f) | (cast<uint8_t>(b > 0.0f) << 1) | (cast<uint8_t>(abs(a) > hi) << 2);
  store(flags + offs, f, m);
  store(partial + program_id(0), sum(a) + sum(b));
}

template void piecewise<2048>(const float*, const half*, float*, uint8_t*, float*, int64_t, float, float);
