// Second audit: Triton tutorial 02, fused softmax, as the tutorial writes it: a persistent
// grid-stride loop over rows (row_start = program_id, row_step = num_programs), one row per
// iteration with BLOCK_SIZE >= n_cols, padding with -inf, the local named `row` as in Python.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK_SIZE, int WARPS>
TILECC_KERNEL(num_warps = WARPS)
void a2_softmax(T* output_ptr, const T* input_ptr, int input_row_stride, int output_row_stride, int n_rows,
                int n_cols) {
  const int row_start = program_id(0);
  const int row_step = num_programs(0);
  for (int row_idx = row_start; row_idx < n_rows; row_idx += row_step) {
    const T* row_start_ptr = input_ptr + row_idx * input_row_stride;
    auto col_offsets = arange<BLOCK_SIZE>();
    auto input_ptrs = row_start_ptr + col_offsets;
    auto mask = col_offsets < n_cols;
    auto row = cast<float>(load(input_ptrs, mask, -INFINITY));
    auto row_minus_max = row - max<0>(row);
    auto numerator = exp(row_minus_max);
    auto denominator = sum<0>(numerator);
    auto softmax_output = numerator / denominator;
    T* output_row_start_ptr = output_ptr + row_idx * output_row_stride;
    store(output_row_start_ptr + col_offsets, cast<T>(softmax_output), mask);
  }
}

template void a2_softmax<float, 1024, 4>(float*, const float*, int, int, int, int);
template void a2_softmax<half, 4096, 8>(half*, const half*, int, int, int, int);
template void a2_softmax<bfloat16, 256, 2>(bfloat16*, const bfloat16*, int, int, int, int);
