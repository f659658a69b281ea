#include "01_creation_shape.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<int8_t> o8(64); std::vector<uint8_t> ou8(64); std::vector<int64_t> o64(64);
  std::vector<bfloat16> obf(32, bfloat16(0.0f)); std::vector<half> oh(32, half(0.0f)); std::vector<float> of(1);
  tilecc::host::launch(1, create_types, o8.data(), ou8.data(), o64.data(), obf.data(), oh.data(), of.data());
  std::vector<float> x(512, 1.0f), y(512);
  tilecc::host::launch(1, rank3_copy, x.data(), y.data());
  std::vector<int> xi(256, 3), yi(256), zi(256); std::vector<float> w(64);
  tilecc::host::launch(1, bcast_reshape_trans, xi.data(), yi.data(), zi.data(), w.data());
  std::vector<float> a(4 * 16, 1.0f), b(8, 2.0f), out(4 * 8 * 16);
  tilecc::host::launch(1, rank3_broadcast, a.data(), b.data(), out.data(), 3, 7, 13);
  std::printf("%d %f %d %f\n", o8[0], y[0], zi[1], out[0]);
  return (o8[0] == 3 && y[0] == 2.0f && out[0] == 3.0f) ? 0 : 1;
}
