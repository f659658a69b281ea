// Reductions on each axis of rank-2 and rank-3 tiles, of each result-type class.
#include <tilecc/tile.hpp>
using namespace tilecc;

// Axis 0 and axis 1 of a [32, 64] float tile: sum, max, min, argmax, argmin.
TILECC_KERNEL(num_warps = 4)
void reduce_2d(const float* x, float* s0, float* s1, float* mx0, float* mn1, int* am0, int* an1, int rows, int cols) {
  auto r = arange<32>();
  auto c = arange<64>();
  auto m = col(r < rows) & row(c < cols);
  auto v = load(x + col(r) * cols + row(c), m, 0.0f);
  store(s0 + c, sum<0>(v), c < cols);
  store(s1 + r, sum<1>(v), r < rows);
  store(mx0 + c, max<0>(where(m, v, -INFINITY)), c < cols);
  store(mn1 + r, min<1>(where(m, v, INFINITY)), r < rows);
  store(am0 + c, argmax<0>(where(m, v, -INFINITY)), c < cols);
  store(an1 + r, argmin<1>(where(m, v, INFINITY)), r < rows);
}

// Rank 3: reduce along axes 0, 1, 2.
TILECC_KERNEL(num_warps = 4)
void reduce_3d(const int* x, int* o0, int* o1, int* o2) {
  auto i = expand_dims<1>(col(arange<4>()));
  auto j = expand_dims<0>(col(arange<8>()));
  auto k = expand_dims<0>(row(arange<16>()));
  auto v = load(x + (i * 8 + j) * 16 + k);                  // [4, 8, 16]
  auto a = sum<0>(v);                                       // [8, 16]
  auto b = max<1>(v);                                       // [4, 16]
  auto c = min<2>(v);                                       // [4, 8]
  store(o0 + col(arange<8>()) * 16 + row(arange<16>()), a);
  store(o1 + col(arange<4>()) * 16 + row(arange<16>()), b);
  store(o2 + col(arange<4>()) * 8 + row(arange<8>()), c);
}

// Result types: sum of half/bfloat16 -> float, of int8/uint8/bool -> int; rank 1 -> scalar.
TILECC_KERNEL(num_warps = 2)
void reduce_types(const half* h, const bfloat16* b, const int8_t* i8, const uint8_t* u8, const bool* bo, float* of,
                  int* oi, int n) {
  auto i = arange<128>();
  auto m = i < n;
  const float sh = sum(load(h + i, m));
  const float sb = sum(load(b + i, m));
  const int s8 = sum(load(i8 + i, m));
  const int su8 = sum(load(u8 + i, m));
  const int sbo = sum(load(bo + i, m));
  store(of, sh + sb);
  store(oi, s8 + su8 + sbo);
  auto hm = max(load(h + i, m, -1.0f));          // half scalar
  store(of + 1, static_cast<float>(hm));
  store(oi + 1, argmax(load(h + i, m, -1.0f)) + argmin(load(b + i, m, 1.0f)));
}

// int64_t and uint32_t max/min/argmax along axis 1 of a [16, 32] tile, half sum along axis 0.
TILECC_KERNEL(num_warps = 4)
void reduce_ints(const int64_t* a, const uint32_t* b, const half* h, int64_t* oa, uint32_t* ob, int* oc, float* od) {
  auto idx = col(arange<16>()) * 32 + row(arange<32>());
  auto va = load(a + idx);
  auto vb = load(b + idx);
  store(oa + arange<16>(), max<1>(va) - min<1>(va));
  store(ob + arange<16>(), min<1>(vb) + max<1>(vb));
  store(oc + arange<16>(), argmax<1>(va) + argmin<1>(vb));
  store(od + arange<32>(), sum<0>(load(h + idx)));
}

// Row reduction in a loop with a scalar result per row (non-power-of-two columns).
TILECC_KERNEL(num_warps = 8)
void row_max_loop(const float* x, float* out, int cols, int64_t ld) {
  const int64_t r = program_id(0);
  float m = -INFINITY;
  for (int c = 0; c < cols; c += 512) {
    auto cc = c + arange<512>();
    m = tilecc::max(m, max(load(x + r * ld + cc, cc < cols, -INFINITY)));
  }
  store(out + r, m);
}
