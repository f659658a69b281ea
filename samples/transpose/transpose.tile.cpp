// out = x^T for a rows x cols matrix, in B x B tiles: program (i, j) reads tile (i, j) of x
// and writes tile (j, i) of out.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int B>
TILECC_KERNEL(num_warps = 4)
void transpose(const T* x, T* out, int rows, int cols, int64_t x_stride, int64_t out_stride) {
  auto i = program_id(0) * B + arange<B>();  // rows of x
  auto j = program_id(1) * B + arange<B>();  // columns of x
  auto t = load(x + cast<int64_t>(col(i)) * x_stride + row(j), (col(i) < rows) & (row(j) < cols));
  store(out + cast<int64_t>(col(j)) * out_stride + row(i), trans(t), (col(j) < cols) & (row(i) < rows));
}

template void transpose<half, 64>(const half*, half*, int, int, int64_t, int64_t);
template void transpose<float, 32>(const float*, float*, int, int, int64_t, int64_t);
