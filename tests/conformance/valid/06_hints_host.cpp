#include "06_hints.tile.cpp"
#include <vector>
int main() {
  alignas(16) static float x[64 * 32], y[64 * 32];
  tilecc::host::launch(2, hinted_copy, x, y, 64, 30);
  alignas(16) static half xh[4 * 128], yh[4 * 128];
  tilecc::host::launch(4, hinted_half, xh, yh, int64_t{128}, 100u);
  return 0;
}
