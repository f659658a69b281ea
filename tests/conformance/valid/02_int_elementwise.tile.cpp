// Integer elementwise operators on each integer element type, integer promotion, bool tiles.
#include <tilecc/tile.hpp>
using namespace tilecc;

// % / << >> & | ^ ~ and unary - on int tiles, with scalars on either side.
TILECC_KERNEL(num_warps = 4)
void int_ops(const int* a, const int* b, int* out, int n) {
  auto i = program_id(0) * 256 + arange<256>();
  auto m = i < n;
  auto x = load(a + i, m, 0);
  auto y = load(b + i, m, 1);
  auto r = (x / y) + (x % y) + (x << 3) + (x >> 1) + (x & y) + (x | 7) + (x ^ y) + ~x + (-y);
  auto s = 100 - x + 3 * y + (1 << (y & 7)) + 1000 / (y | 1) + 17 % (y | 1);
  store(out + i, r + s, m);
}

// int8_t, uint8_t and uint32_t tiles: arithmetic stays in the type, stores the type.
TILECC_KERNEL(num_warps = 4)
void narrow_ints(const int8_t* a, const uint8_t* b, const uint32_t* c, int8_t* oa, uint8_t* ob, uint32_t* oc, int n) {
  auto i = program_id(0) * 128 + arange<128>();
  auto m = i < n;
  auto x = load(a + i, m);
  auto y = load(b + i, m);
  auto z = load(c + i, m);
  store(oa + i, x * 3 + (x >> 2) - ~x, m);
  store(ob + i, (y << 1) | ((y >> 7) ^ y), m);
  store(oc + i, z / 3u + (z % 5u) + (z >> 31) + 1, m);
}

// Promotion: tile<int> + tile<int64_t>, tile<int8_t> + tile<int>, tile<int> + int64_t scalar,
// tile<int> * float scalar -> float tile, comparison in the computed type.
TILECC_KERNEL(num_warps = 4)
void promotion(const int8_t* a, const int64_t* b, int64_t* o64, int* o32, float* of, bool* ob, int64_t big) {
  auto i = arange<128>();
  auto x8 = load(a + i);
  auto x64 = load(b + i);
  auto p1 = i + x64;                 // tile<int64_t>
  auto p2 = x8 + i;                  // tile<int>
  auto p3 = i + big;                 // tile<int64_t>
  auto p4 = i * 0.5f;                // tile<float>
  store(o64 + i, p1 + p3);
  store(o32 + i, p2);
  store(of + i, p4);
  store(ob + i, (i < big) & (x8 < x64));
}

// bool tiles: ! ~ ^ & | and comparisons of bools, stored to bool*.
TILECC_KERNEL(num_warps = 1)
void bool_ops(const bool* a, const bool* b, bool* out, int* count) {
  auto i = arange<32>();
  auto x = load(a + i);
  auto y = load(b + i);
  auto r = ((!x) & y) | (~y ^ x) | (x == y) | (x != y);
  store(out + i, r);
  store(count, sum(r) + sum(x < y));
}

// Compound assignments of every operator, on int and float tiles and pointer tiles.
TILECC_KERNEL(num_warps = 4)
void compound(const float* x, int* oi, float* of, int n) {
  auto i = arange<128>();
  auto t = i;
  t += 3; t -= 1; t *= 5; t /= 2; t %= 1000; t <<= 2; t >>= 1; t &= 0xffff; t |= 1; t ^= 2;
  store(oi + i, t);
  auto f = load(x + i, i < n, 0.0f);
  f += 1.0f; f -= 0.5f; f *= 2.0f; f /= 3.0f;
  auto ptrs = of + i;
  ptrs += 128;
  ptrs -= 128;
  store(ptrs, f, i < n);
}
