#include <tilecc/tile.hpp>
using namespace tilecc;
inline float fact(float n) {
  if (n <= 1.0f) return 1.0f;
  return n * fact(n - 1.0f);  // HERE
}
TILECC_KERNEL()
void k(float* y, float n) { store(y + arange<64>(), fact(n)); }
