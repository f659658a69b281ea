#include "15_edge.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<float> x(256, 1.0f), a(64), b(64), c(64), d(1), y(300);
  tilecc::host::launch(1, extent_one, x.data(), a.data(), b.data(), c.data(), d.data());
  tilecc::host::launch(1, explicit_types, x.data(), y.data(), 100);
  tilecc::host::launch(1, pointer_tiles, x.data(), y.data(), y.data(), 50, true);
  tilecc::host::launch(1, ternaries, x.data(), y.data(), 1);
  bool seen[256];
  tilecc::host::launch(1, lambda_var, x.data(), y.data(), seen);
  std::printf("%f %f %f\n", a[0], d[0], y[0]);
  return 0;
}
