// Second audit: histograms with atomic_add. (a) float values into n_bins equal bins over
// [lo, hi), values outside clamped to the end bins, NaN skipped through the mask; (b) a 256-bin
// histogram of uint8 pixels; (c) the old values atomic_add returns, used to hand out slots
// (each element's position among the equal-keyed elements seen before it, in any order).
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void a2_histogram(const float* x, int* counts, int n, int n_bins, float lo, float inv_width) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto v = load(x + offs, offs < n, 0.0f);
  auto mask = (offs < n) & (v == v);
  auto bin = cast<int>(floor((v - lo) * inv_width));
  bin = minimum(maximum(bin, 0), n_bins - 1);
  atomic_add(counts + bin, 1, mask);
}
template void a2_histogram<1024>(const float*, int*, int, int, float, float);

template <int BLOCK>
TILECC_KERNEL(num_warps = 8)
void a2_histogram_u8(const uint8_t* pixels, uint32_t* counts, int n) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto p = load(pixels + offs, offs < n);
  atomic_add(counts + cast<int>(p), 1u, offs < n);
}
template void a2_histogram_u8<2048>(const uint8_t*, uint32_t*, int);

template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void a2_bucket_slots(const int* keys, int* bucket_fill, int* slot, int n) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  auto mask = offs < n;
  auto k = load(keys + offs, mask);
  auto old = atomic_add(bucket_fill + k, 1, mask);
  store(slot + offs, old, mask);
}
template void a2_bucket_slots<256>(const int*, int*, int*, int);
