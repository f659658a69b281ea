// Shape moves of bool tiles and of pointer tiles (through shared memory): trans/reshape/broadcast of masks,
// storing through a transposed pointer tile.
// (A pointer tile carried through a loop and transposed: see f02_ptr_tile_cvt.)
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void bool_moves(const float* x, bool* t, bool* r, float* y, int rows, int cols) {
  auto idx = col(arange<32>()) * 64 + row(arange<64>());
  auto m = (col(arange<32>()) < rows) & (row(arange<64>()) < cols);
  store(t + col(arange<64>()) * 32 + row(arange<32>()), trans(m));
  store(r + idx, reshape<32, 64>(reshape<2048>(m)));
  auto mm = trans(m);
  store(y + col(arange<64>()) * 32 + row(arange<32>()), load(trans(x + idx), mm, -1.0f), mm);
}

// Store through trans(pointer tile): a transposed store of a mutable pointer tile.
TILECC_KERNEL(num_warps = 4)
void store_trans_ptrs(const float* x, float* y) {
  auto idx = col(arange<32>()) * 64 + row(arange<64>());
  auto v = load(x + idx);                    // [32, 64]
  auto p = y + col(arange<64>()) * 32 + row(arange<32>());   // [64, 32]
  store(trans(p), v);
}
