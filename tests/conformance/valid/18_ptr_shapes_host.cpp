#include "18_ptr_shapes.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<float> x(2048), y(2048), z(512);
  for (int i = 0; i < 2048; ++i) x[i] = i;
  tilecc::host::launch(1, ptr_trans, x.data(), y.data());
  float t = y[1];  // element (0, 1) of the transposed = x[64]
  tilecc::host::launch(1, ptr_reshape, x.data(), y.data(), z.data());
  tilecc::host::launch(2, ptr_hints, x.data(), y.data(), int64_t{256});
  std::vector<int64_t> ids = {3, 1, 2, 0, 5}; std::vector<half> table(8 * 100, half(1.0f)), out(5 * 100, half(0.0f));
  tilecc::host::launch(1, gather_rows, ids.data(), table.data(), out.data(), 100, 5);
  std::printf("%f %f\n", t, z[64 * 7 + 5]);
  return (t == 64.0f) ? 0 : 1;
}
