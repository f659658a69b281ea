#include "23_small_tiles_many_warps.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<float> x(64, 1.0f), y(64); int z = 0;
  tilecc::host::launch(1, tiny<1>, x.data(), y.data(), &z);
  tilecc::host::launch(1, tiny<32>, x.data(), y.data(), &z);
  std::vector<half> a(4096, half(1.0f)); std::vector<float> c(4096);
  tilecc::host::launch(1, small_dot<16, 16, 16, 8>, a.data(), a.data(), c.data());
  tilecc::host::launch(1, small_dot<16, 16, 256, 4>, a.data(), a.data(), c.data());
  std::printf("%f %f\n", y[0], c[0]);
  return c[0] == 257.0f ? 0 : 1;
}
