// Second audit: Triton tutorial 04's low-memory dropout, with the random numbers from a
// user-written counter hash (tilecc has no tl.rand): uint32 tiles, wrapping multiplies,
// shifts and xors, the seed a kernel argument; keep = u >= p, kept values scaled by 1/(1-p).
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int N>
tile<uint32_t, N> hash32(tile<uint32_t, N> x) {
  x = x ^ (x >> 16);
  x = x * 0x7feb352du;
  x = x ^ (x >> 15);
  x = x * 0x846ca68bu;
  x = x ^ (x >> 16);
  return x;
}

template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void a2_seeded_dropout(const float* x_ptr, float* output_ptr, int n_elements, float p, unsigned seed) {
  auto offsets = program_id(0) * BLOCK + arange<BLOCK>();
  auto mask = offsets < n_elements;
  auto x = load(x_ptr + offsets, mask);
  auto bits = hash32(cast<uint32_t>(offsets) * 0x9e3779b9u + seed);
  auto random = cast<float>(bits >> 8) * (1.0f / 16777216.0f);
  auto x_keep = random > p;
  auto output = where(x_keep, x / (1 - p), 0.0f);
  store(output_ptr + offsets, output, mask);
}
template void a2_seeded_dropout<1024>(const float*, float*, int, float, unsigned);
