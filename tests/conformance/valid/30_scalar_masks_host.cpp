#include "30_scalar_masks.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(512, 1.0f), y(1536, -1.0f);
  tilecc::host::launch(1, scalar_masks, x.data(), y.data(), false, 10);
  return (y[0] == -1.0f && y[512 + 5] == 5.0f && y[1024] == -1.0f) ? 0 : 1;
}
