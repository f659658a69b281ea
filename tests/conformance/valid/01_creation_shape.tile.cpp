// Creation and shape operations: zeros/full of several element types, extents of 1,
// expand_dims on every axis, broadcast_to, reshape, trans of a non-square tile, rank-3 tiles.
#include <tilecc/tile.hpp>
using namespace tilecc;

// zeros/full of int8_t, uint8_t, int64_t, bfloat16, half; extents 1 and non-square.
TILECC_KERNEL(num_warps = 4)
void create_types(int8_t* o8, uint8_t* ou8, int64_t* o64, bfloat16* obf, half* oh, float* of) {
  auto i = arange<64>();
  store(o8 + i, zeros<int8_t, 64>() + full<int8_t, 64>(3));
  store(ou8 + i, full<uint8_t, 64>(200));
  store(o64 + i, full<int64_t, 64>(int64_t{1} << 40) + i);
  auto r = col(arange<8>()) * 4 + row(arange<4>());          // [8, 4]
  store(obf + r, full<bfloat16, 8, 4>(1.5f));
  store(oh + r, full<half, 8, 4>(-2.0f));
  auto one = arange<1>();                                      // tile<int, 1>
  store(of + one, full<float, 1>(7.0f));
}

// expand_dims on axes 0, 1, 2 of rank-2 tiles; rank-3 pointers, load and store.
TILECC_KERNEL(num_warps = 4)
void rank3_copy(const float* x, float* y) {
  auto i = arange<4>();
  auto j = arange<8>();
  auto k = arange<16>();
  auto ij = col(i) * 8 + row(j);                     // [4, 8]
  auto ijk = expand_dims<2>(ij) * 16 + expand_dims<0>(expand_dims<0>(k));  // [4, 8, 16]
  auto v = load(x + ijk);
  store(y + ijk, v * 2.0f);
}

// broadcast_to from lower rank and scalar, reshape (rank change), trans of [8, 32].
TILECC_KERNEL(num_warps = 2)
void bcast_reshape_trans(const int* x, int* y, int* z, float* w) {
  auto r = col(arange<8>()) * 32 + row(arange<32>());     // [8, 32]
  auto v = load(x + r);
  auto t = trans(v);                                       // [32, 8]
  store(y + col(arange<32>()) * 8 + row(arange<8>()), t);
  auto flat = reshape<256>(v);                             // [256]
  auto cube = reshape<4, 8, 8>(flat);                      // [4, 8, 8]
  auto back = reshape<8, 32>(cube);
  store(z + r, back + broadcast_to<8, 32>(arange<32>()) + broadcast_to<8, 32>(col(arange<8>())));
  auto s = broadcast_to<4, 16>(1.5f);
  store(w + col(arange<4>()) * 16 + row(arange<16>()), s);
}

// NumPy broadcasting in rank 3: [4,1,16] op [1,8,1] -> [4,8,16]; non-power-of-two runtime sizes with masks.
TILECC_KERNEL(num_warps = 4)
void rank3_broadcast(const float* a, const float* b, float* out, int n0, int n1, int n2) {
  auto i = expand_dims<1>(col(arange<4>()));                // [4,1,1]
  auto j = expand_dims<0>(col(arange<8>()));                // [1,8,1]
  auto k = expand_dims<0>(row(arange<16>()));               // [1,1,16]
  auto av = load(a + i * n2 + k, (i < n0) & (k < n2), 0.0f);       // [4,1,16]
  auto bv = load(b + j, j < n1, 0.0f);                              // [1,8,1]
  store(out + (i * n1 + j) * n2 + k, av + bv, (i < n0) & (j < n1) & (k < n2));
}
