// Shape operations and hints on tiles of pointers (contract §3: T may be a pointer to an element type).
#include <tilecc/tile.hpp>
using namespace tilecc;

// trans of a pointer tile: a transposed load.
TILECC_KERNEL(num_warps = 4)
void ptr_trans(const float* x, float* y) {
  auto idx = col(arange<32>()) * 64 + row(arange<64>());   // [32, 64]
  auto p = x + idx;
  auto v = load(trans(p));                                   // [64, 32]
  store(y + col(arange<64>()) * 32 + row(arange<32>()), v);
}

// expand_dims and broadcast_to of pointer tiles (reshape: see f03_ptr_reshape).
TILECC_KERNEL(num_warps = 4)
void ptr_reshape(const float* x, float* y, float* z) {
  store(y + row(arange<64>()), load(expand_dims<0>(x + arange<64>())));
  auto q = broadcast_to<8, 64>(expand_dims<0>(x + arange<64>()));     // every row the same pointers
  store(z + col(arange<8>()) * 64 + row(arange<64>()), load(q));
}

// multiple_of / max_contiguous on pointer tiles.
TILECC_KERNEL(num_warps = 4)
void ptr_hints(const float* x, float* y, int64_t ld) {
  auto p = x + program_id(0) * ld + arange<256>();
  auto q = max_contiguous(multiple_of(p, 4), 4);
  store(y + program_id(0) * ld + arange<256>(), load(q));
}

// Pointer tiles gathered through an index tile loaded from memory (an embedding lookup), 2-D.
TILECC_KERNEL(num_warps = 4)
void gather_rows(const int64_t* ids, const half* table, half* out, int dim, int n) {
  auto r = program_id(0) * 16 + arange<16>();
  auto c = arange<128>();
  auto id = load(ids + r, r < n, int64_t{0});
  auto p = table + col(id) * dim + row(c);
  auto m = col(r < n) & row(c < dim);
  store(out + col(cast<int64_t>(r)) * dim + row(c), load(p, m), m);
}
