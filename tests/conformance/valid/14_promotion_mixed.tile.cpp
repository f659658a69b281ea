// Integer promotion across widths and signedness classes allowed by the contract, scalars of each kind
// with each tile kind, scalar on the left of every operator.
#include <tilecc/tile.hpp>
using namespace tilecc;

// uint8 + int -> int, int8 + int64 -> int64, uint32 + int64_t scalar -> int64, int8 tile + int64 scalar -> int64.
TILECC_KERNEL(num_warps = 2)
void widths(const uint8_t* a, const int8_t* b, const uint32_t* c, const int64_t* d, int* o32, int64_t* o64,
            int64_t* o64b, uint32_t* ou, int64_t s64) {
  auto i = arange<64>();
  auto u8 = load(a + i);
  auto i8 = load(b + i);
  auto u32 = load(c + i);
  auto i64 = load(d + i);
  store(o32 + i, u8 + i);                    // tile<uint8_t> + tile<int> -> tile<int>
  store(o64 + i, i8 + i64);                  // tile<int8_t> + tile<int64_t> -> tile<int64_t>
  store(o64b + i, (u32 + s64) + (i8 * s64)); // tile<uint32_t> + int64_t -> tile<int64_t>
  store(ou + i, u32 + u8 * 0 + 1u);          // tile<uint32_t> + tile<uint8_t> -> tile<uint32_t>? (wider: uint32_t)
}

// Scalars on the left: s - t, s / t, s % t, s << t, s >> t, s & t, s | t, s ^ t, s < t; float tiles with int scalars.
TILECC_KERNEL(num_warps = 4)
void scalar_left(const int* x, const float* f, int* oi, float* of, bool* ob) {
  auto i = arange<128>();
  auto v = load(x + i) | 1;
  store(oi + i, (100 - v) + (1000 / v) + (77 % v) + (1 << (v & 15)) + (-1024 >> (v & 7)) + (0xff & v) + (0x100 | v) + (5 ^ v));
  auto w = load(f + i);
  store(of + i, 2 * w + w / 3 + (1 - w) + w * int64_t{2} + 0.5 * w);
  store(ob + i, (3 < v) | (2.0f >= w) | (w == 1));
}

// half / bfloat16 tiles with float scalars, comparisons, unary minus and plus.
TILECC_KERNEL(num_warps = 4)
void low_precision_mix(const half* h, const bfloat16* b, half* oh, bfloat16* ob, bool* mask_out) {
  auto i = arange<128>();
  auto x = load(h + i);
  auto y = load(b + i);
  store(oh + i, -x * 2.0f + 1.0f + (+x));
  store(ob + i, y / 3.0f - 1);
  store(mask_out + i, (x > 0.5f) & (y <= 2.0f) & (x != x + 1.0f));
}

// Integer tile math: abs, maximum/minimum on int8/int64/uint32, negative division and remainder, int64 shifts.
TILECC_KERNEL(num_warps = 2)
void int_math(const int8_t* a, const int64_t* b, const uint32_t* c, int8_t* oa, int64_t* ob, uint32_t* oc) {
  auto i = arange<64>();
  auto x = load(a + i);
  auto y = load(b + i);
  auto z = load(c + i);
  store(oa + i, maximum(abs(x), minimum(x, 3)));
  store(ob + i, (y / -3) + (y % -7) + (y << 40) + (y >> 2) + abs(y) + maximum(y, int64_t{5}));
  store(oc + i, maximum(z, 10u) + minimum(z, 3u) + (z << 31));
}
