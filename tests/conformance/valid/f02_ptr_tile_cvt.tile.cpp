// Pointer tiles carried through loops that cross a layout conversion through shared memory.
// Vectorised reads back: `static_cast<const int*>(unsigned long long)` (invalid type conversion);
// element reads back of const pointees: `reinterpret_cast<const const __half**>` (qualifier twice).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL(num_warps = 4)
void ptr_nested(const int* x, int* y, int rows, int cols) {
  auto p = x + arange<64>();
  int total = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; c += 64) total += sum(load(p + c, c + arange<64>() < cols, 0));
    p += cols;
  }
  store(y, total);
}

// A half pointer tile carried through a loop where it is also transposed for a load.
TILECC_KERNEL(num_warps = 4)
void carried_trans_ptrs(const half* x, float* y, int steps) {
  auto p = x + col(arange<32>()) * 64 + row(arange<64>());
  auto acc = zeros<float, 64, 32>();
  for (int s = 0; s < steps; ++s) {
    acc += cast<float>(load(trans(p)));
    p += 2048;
  }
  store(y + col(arange<64>()) * 32 + row(arange<32>()), acc);
}

// return from inside a nested loop of the kernel, with carried pointer tiles and an int64 accumulator.
TILECC_KERNEL(num_warps = 4)
void nested_return(const int* x, int64_t* out, int rows, int cols, int64_t limit) {
  auto p = x + arange<64>();
  int64_t total = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; c += 64) {
      total += sum(load(p + c, c + arange<64>() < cols, 0));
      if (total > limit) {
        store(out, total);
        store(out + 1, static_cast<int64_t>(r));
        return;
      }
    }
    p += cols;
  }
  store(out, total);
  store(out + 1, int64_t(-1));
}
