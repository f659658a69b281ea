// with_layout: the spec's example, rank-1 layouts, a layout on a reduction input, a computed value, and a
// helper that builds a layout from the tile shape.
#include <tilecc/tile.hpp>
using namespace tilecc;

// The contract's example: [64, 64] tile, 4 warps.
TILECC_KERNEL(num_warps = 4)
void layout_spec_example(const float* x, float* y) {
  auto idx = col(arange<64>()) * 64 + row(arange<64>());
  auto v = with_layout<compose<spatial<4, 1>, spatial<8, 4>, repeat<2, 16>>>(load(x + idx));
  store(y + idx, v * 2.0f);
}

// Rank 1: 4 consecutive elements per thread, 2 warps; a spatial-only mapping on 1 warp.
TILECC_KERNEL(num_warps = 2)
void layout_rank1(const float* x, float* y) {
  auto i = arange<1024>();
  auto v = with_layout<compose<spatial<2>, repeat<2>, spatial<32>, repeat<8>>>(load(x + i));
  store(y + i, v + 1.0f);
}

TILECC_KERNEL(num_warps = 1)
void layout_rank1_spatial(const int* x, int* y) {
  auto i = arange<32>();
  store(y + i, with_layout<spatial<32>>(load(x + i)) * 3);
}

// Layout pinned on a computed value that feeds a reduction along rows; non-square tile.
TILECC_KERNEL(num_warps = 4)
void layout_reduce(const float* x, float* y) {
  auto idx = col(arange<32>()) * 128 + row(arange<128>());
  auto v = load(x + idx);
  auto e = with_layout<compose<spatial<4, 1>, repeat<2, 1>, spatial<4, 8>, repeat<1, 16>>>(exp(v));
  store(y + arange<32>(), sum<1>(e));
}

// The documented Hopper-accumulator-like mapping on a half tile.
TILECC_KERNEL(num_warps = 4)
void layout_wgmma_like(const half* x, half* y) {
  auto idx = col(arange<64>()) * 64 + row(arange<64>());
  auto v = with_layout<compose<spatial<4, 1>, repeat<2, 1>, spatial<8, 4>, repeat<1, 16>>>(load(x + idx));
  store(y + idx, v);
}
