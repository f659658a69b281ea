// Second audit: prefix sums over rows. (a) one row per program, BLOCK >= n_cols, inclusive and
// exclusive cumsum of fp32; (b) long int32 rows in chunks with the running total carried in a
// scalar; (c) stream compaction of each row: kept elements (x > threshold) scattered to
// cumsum(mask) - 1, and the count stored; (d) a running maximum with scan and a lambda.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void a2_cumsum_row(const float* x, float* incl, float* excl, int n_cols, int64_t stride) {
  const int64_t r = program_id(0);
  auto cols = arange<BLOCK>();
  auto mask = cols < n_cols;
  auto v = load(x + r * stride + cols, mask, 0.0f);
  auto c = cumsum(v);
  store(incl + r * stride + cols, c, mask);
  store(excl + r * stride + cols, c - v, mask);
}
template void a2_cumsum_row<1024>(const float*, float*, float*, int, int64_t);

template <int BLOCK>
TILECC_KERNEL(num_warps = 8)
void a2_cumsum_long(const int* x, int64_t* y, int n_cols, int64_t stride) {
  const int64_t r = program_id(0);
  int64_t carry = 0;
  for (int c0 = 0; c0 < n_cols; c0 += BLOCK) {
    auto cols = c0 + arange<BLOCK>();
    auto m = cols < n_cols;
    auto v = cast<int64_t>(load(x + r * stride + cols, m, 0));
    store(y + r * stride + cols, cumsum(v) + carry, m);
    carry += sum(v);
  }
}
template void a2_cumsum_long<512>(const int*, int64_t*, int, int64_t);

template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void a2_compact(const float* x, float* out, int* count, int n_cols, int64_t stride, float threshold) {
  const int64_t r = program_id(0);
  auto cols = arange<BLOCK>();
  auto v = load(x + r * stride + cols, cols < n_cols, -INFINITY);
  auto keep = (v > threshold) & (cols < n_cols);
  auto slot = cumsum(keep) - 1;
  store(out + r * stride + slot, v, keep);
  store(count + r, sum(keep));
}
template void a2_compact<256>(const float*, float*, int*, int, int64_t, float);

template <int BM, int BN>
TILECC_KERNEL(num_warps = 4)
void a2_running_max(const float* x, float* y, int n_rows, int n_cols) {
  auto rows = program_id(0) * BM + arange<BM>();
  auto cols = arange<BN>();
  auto mask = col(rows < n_rows) & row(cols < n_cols);
  auto v = load(x + col(rows) * n_cols + row(cols), mask, -INFINITY);
  auto m = scan<1>(v, [](float a, float b) { return a < b ? b : a; });
  store(y + col(rows) * n_cols + row(cols), m, mask);
}
template void a2_running_max<8, 64>(const float*, float*, int, int);
