// argmax across warps of 1-byte values: the partials buffer holds the values, then the indices
// from the next 4-byte boundary (an int read at byte 2 is a misaligned access on the GPU; found
// by the GPU fuzz batch, seed 23, kernel b059_k1).
// ARGS: -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- amax -> amax ----
// CHECK: r_partials at 0, 12 bytes ([12] u8
// CHECK: int8_t* pbuf = reinterpret_cast<int8_t*>(r_partials);
// CHECK-NEXT: int* ibuf = reinterpret_cast<int*>(r_partials + 4);
TILECC_KERNEL(num_warps = 2)
void amax(const int8_t* x, int* out) {
  auto r = argmax<0>(load(x + arange<64>()));
  store(out + program_id(0), r);
}
