// A local array of accumulators (a Python list of tiles).
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(const float* x, float* out) {
  tile<float, 64> acc[2] = {zeros<float, 64>(), zeros<float, 64>()};  // HERE
  acc[0] += load(x + arange<64>());
  acc[1] += load(x + 64 + arange<64>());
  store(out + arange<64>(), acc[0] + acc[1]);
}
