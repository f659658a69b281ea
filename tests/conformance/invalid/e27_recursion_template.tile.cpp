#include <tilecc/tile.hpp>
using namespace tilecc;
template <int N>
float depth(float v) {
  if (v > 100.0f) return v;
  return depth<N>(v * 2.0f);  // HERE
}
TILECC_KERNEL()
void k(float* y, float v) { store(y + arange<64>(), depth<1>(v)); }
