// Second audit: Triton tutorial 05, layer norm forward (columns in BLOCK_SIZE chunks, the row
// pointers moved in place as the tutorial does `X += row * stride`), backward dx fused with the
// dw/db partial sums (atomics into GROUP_SIZE_M partial rows instead of the tutorial's locks),
// and the second kernel that reduces the partial rows.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK_SIZE>
TILECC_KERNEL(num_warps = 8)
void a2_ln_fwd(const T* X, T* Y, const T* W, const T* B, float* Mean, float* Rstd, int stride, int N, float eps) {
  const int row = program_id(0);
  Y += row * stride;
  X += row * stride;
  auto _mean = zeros<float, BLOCK_SIZE>();
  for (int off = 0; off < N; off += BLOCK_SIZE) {
    auto cols = off + arange<BLOCK_SIZE>();
    auto a = cast<float>(load(X + cols, cols < N, 0.0f));
    _mean += a;
  }
  const float mean = sum(_mean) / N;
  auto _var = zeros<float, BLOCK_SIZE>();
  for (int off = 0; off < N; off += BLOCK_SIZE) {
    auto cols = off + arange<BLOCK_SIZE>();
    auto x = cast<float>(load(X + cols, cols < N, 0.0f));
    x = where(cols < N, x - mean, 0.0f);
    _var += x * x;
  }
  const float var = sum(_var) / N;
  const float rstd = 1 / std::sqrt(var + eps);
  store(Mean + row, mean);
  store(Rstd + row, rstd);
  for (int off = 0; off < N; off += BLOCK_SIZE) {
    auto cols = off + arange<BLOCK_SIZE>();
    auto mask = cols < N;
    auto w = load(W + cols, mask);
    auto b = load(B + cols, mask);
    auto x = cast<float>(load(X + cols, mask, 0.0f));
    auto x_hat = (x - mean) * rstd;
    auto y = x_hat * cast<float>(w) + cast<float>(b);
    store(Y + cols, cast<T>(y), mask);
  }
}
template void a2_ln_fwd<half, 512>(const half*, half*, const half*, const half*, float*, float*, int, int, float);
template void a2_ln_fwd<float, 1024>(const float*, float*, const float*, const float*, float*, float*, int, int, float);

template <class T, int GROUP_SIZE_M, int BLOCK_SIZE_N>
TILECC_KERNEL(num_warps = 8)
void a2_ln_bwd_dx_fused(T* DX, const T* DY, float* DW, float* DB, const T* X, const T* W, const float* Mean,
                        const float* Rstd, int stride, int N) {
  const int row = program_id(0);
  auto cols = arange<BLOCK_SIZE_N>();
  auto mask = cols < N;
  X += row * stride;
  DY += row * stride;
  DX += row * stride;
  const int lock_id = row % GROUP_SIZE_M;
  auto x = cast<float>(load(X + cols, mask, 0.0f));
  auto dy = cast<float>(load(DY + cols, mask, 0.0f));
  auto w = cast<float>(load(W + cols, mask));
  const float mean = load(Mean + row);
  const float rstd = load(Rstd + row);
  auto xhat = (x - mean) * rstd;
  auto wdy = w * dy;
  xhat = where(mask, xhat, 0.0f);
  wdy = where(mask, wdy, 0.0f);
  const float c1 = sum(xhat * wdy) / N;
  const float c2 = sum(wdy) / N;
  auto dx = (wdy - (xhat * c1 + c2)) * rstd;
  store(DX + cols, cast<T>(dx), mask);
  auto partial_dw = dy * xhat;
  auto partial_db = dy;
  atomic_add(DW + lock_id * N + cols, partial_dw, mask);
  atomic_add(DB + lock_id * N + cols, partial_db, mask);
}
template void a2_ln_bwd_dx_fused<half, 16, 1024>(half*, const half*, float*, float*, const half*, const half*,
                                                 const float*, const float*, int, int);
template void a2_ln_bwd_dx_fused<float, 8, 256>(float*, const float*, float*, float*, const float*, const float*,
                                                const float*, const float*, int, int);

template <class T, int BLOCK_SIZE_M, int BLOCK_SIZE_N>
TILECC_KERNEL(num_warps = 4)
void a2_ln_bwd_dwdb(const float* DW, const float* DB, T* FINAL_DW, T* FINAL_DB, int M, int N) {
  const int pid = program_id(0);
  auto cols = pid * BLOCK_SIZE_N + arange<BLOCK_SIZE_N>();
  auto dw = zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  auto db = zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  for (int i = 0; i < M; i += BLOCK_SIZE_M) {
    auto rows = i + arange<BLOCK_SIZE_M>();
    auto mask = (col(rows) < M) & (row(cols) < N);
    auto offs = col(rows) * N + row(cols);
    dw += load(DW + offs, mask, 0.0f);
    db += load(DB + offs, mask, 0.0f);
  }
  auto sum_dw = sum<0>(dw);
  auto sum_db = sum<0>(db);
  store(FINAL_DW + cols, cast<T>(sum_dw), cols < N);
  store(FINAL_DB + cols, cast<T>(sum_db), cols < N);
}
template void a2_ln_bwd_dwdb<half, 32, 128>(const float*, const float*, half*, half*, int, int);
template void a2_ln_bwd_dwdb<float, 8, 64>(const float*, const float*, float*, float*, int, int);
