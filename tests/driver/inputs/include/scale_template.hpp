// A kernel template defined in a header (driver.template_in_header). Its own explicit
// instantiation is not in the translated file, so it is not one of that file's kernels.
#pragma once
#include <tilecc/tile.hpp>

template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void scale_in_header(const float* x, float* y, int n) {
  auto i = tilecc::program_id(0) * BLOCK + tilecc::arange<BLOCK>();
  tilecc::store(y + i, tilecc::load(x + i, i < n, 0.0f) * 2.0f, i < n);
}

template void scale_in_header<64>(const float*, float*, int);
