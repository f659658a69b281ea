#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k(float* y, int n) {
  if (n < 0) goto done;  // HERE
  store(y + arange<64>(), 1.0f);
done:
  return;
}
