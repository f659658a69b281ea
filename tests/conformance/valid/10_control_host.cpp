#include "10_control.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<float> x(100000, 1.0f), y(100000), norms(16);
  tilecc::host::launch(3, helpers, x.data(), y.data(), 200, 2, -5.0f, 5.0f);
  tilecc::host::launch(1, nested_loops, x.data(), y.data(), 3, 100, norms.data());
  std::vector<int> xi(64 * 10, 1), yi(64);
  tilecc::host::launch(1, loop_forms, xi.data(), yi.data(), 10, 3);
  tilecc::host::launch(1, early_exit_loop, x.data(), y.data(), 1000, 300.0f);
  tilecc::host::launch(1, carried_if, x.data(), y.data(), 5, 1);
  std::printf("%f %d %f\n", y[0], yi[0], norms[0]);
  return 0;
}
