// Contract §5: "`return` anywhere"; helpers "may return from several places (early returns are lowered
// like the kernel's)". A helper that returns from inside its loop (first block whose sum passes a limit).
#include <tilecc/tile.hpp>
using namespace tilecc;

inline int first_block_over(const float* x, int n, float limit) {
  for (int c = 0; c < n; c += 256) {
    auto cc = c + arange<256>();
    if (sum(load(x + cc, cc < n, 0.0f)) > limit) return c / 256;
  }
  return -1;
}

TILECC_KERNEL(num_warps = 4)
void find_block(const float* x, int* out, int n, float limit) {
  store(out, first_block_over(x, n, limit));
}

// A helper returning a tile from inside a loop, and one with a reference parameter returning at its end only.
template <int N>
tile<float, N> first_positive_block(const float* x, int blocks) {
  for (int b = 0; b < blocks; ++b) {
    auto v = load(x + b * N + arange<N>());
    if (min(v) > 0.0f) return v;
  }
  return zeros<float, N>();
}

TILECC_KERNEL(num_warps = 4)
void find_tile(const float* x, float* y, int blocks) {
  store(y + arange<128>(), first_positive_block<128>(x, blocks));
}
