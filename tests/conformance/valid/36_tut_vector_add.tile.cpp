// Second audit (real-user kernels): Triton tutorial 01, vector addition, fp32 and fp16, with
// the tutorial's names (pid, block_start, offsets, mask).
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK_SIZE>
TILECC_KERNEL(num_warps = 4)
void a2_add(const T* x_ptr, const T* y_ptr, T* output_ptr, int n_elements) {
  const int pid = program_id(0);
  const int block_start = pid * BLOCK_SIZE;
  auto offsets = block_start + arange<BLOCK_SIZE>();
  auto mask = offsets < n_elements;
  auto x = load(x_ptr + offsets, mask);
  auto y = load(y_ptr + offsets, mask);
  auto output = x + y;
  store(output_ptr + offsets, output, mask);
}

template void a2_add<float, 1024>(const float*, const float*, float*, int);
template void a2_add<half, 2048>(const half*, const half*, half*, int);
