// More control flow: helper calling helper with loops, tile assigned in one branch, barrier in a loop,
// return inside nested loops of a kernel, loop-carried pointer tiles and int64 scalars, bool params in ifs.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int N>
tile<float, N> load_row(const T* base, int64_t off, int n) {
  auto i = arange<N>();
  return cast<float>(load(base + off + i, i < n, 0.0f));
}

template <class T, int N>
float row_sum(const T* base, int64_t ld, int rows, int n) {
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) s += sum(load_row<T, N>(base, r * ld, n));
  return s;
}

TILECC_KERNEL(num_warps = 4)
void helper_loops(const half* x, float* out, int64_t ld, int rows, int n, bool twice) {
  float s = row_sum<half, 256>(x, ld, rows, n);
  if (twice) s *= 2.0f;
  store(out + program_id(0), s);
}

TILECC_KERNEL(num_warps = 4)
void one_branch(const float* x, float* y, int mode) {
  auto v = load(x + arange<128>());
  if (mode == 1) v = exp(v);
  else if (mode == 2) v = -v;
  store(y + arange<128>(), v);
}

// Ping-pong through global memory with a barrier each iteration (a 1-D stencil iterated).
TILECC_KERNEL(num_warps = 4)
void stencil_iter(float* buf, int steps) {
  const int64_t base = program_id(0) * 256;
  auto i = arange<256>();
  for (int s = 0; s < steps; ++s) {
    auto left = load(buf + base + i - 1, i > 0, 0.0f);
    auto right = load(buf + base + i + 1, i < 255, 0.0f);
    auto mid = load(buf + base + i);
    barrier();
    store(buf + base + i, (left + mid + right) / 3.0f);
    barrier();
  }
}

// (return inside nested loops with a carried pointer tile: see f02_ptr_tile_cvt.tile.cpp, nested_return)
