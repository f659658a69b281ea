#include "03_float_math.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  int n = 1000;
  std::vector<float> x(1024, 0.5f), out(1024);
  tilecc::host::launch(tilecc::cdiv(n, 512), math_float, x.data(), out.data(), n);
  std::vector<half> xh(300, half(0.5f)), oh(300, half(0.0f));
  tilecc::host::launch(2, math_low<half>, xh.data(), oh.data(), 300);
  std::vector<bfloat16> xb(300, bfloat16(0.5f)), ob(300, bfloat16(0.0f));
  tilecc::host::launch(2, math_low<bfloat16>, xb.data(), ob.data(), 300);
  tilecc::host::launch(1, where_scalars, x.data(), out.data(), 100, true, -1.0f);
  std::vector<float> fb(1, 9.0f);
  tilecc::host::launch(1, where_ptrs, x.data(), fb.data(), out.data(), 100);
  std::vector<int8_t> o8(64); std::vector<uint8_t> ou8(64); std::vector<int> oi(64); std::vector<uint32_t> ou(64);
  std::vector<int64_t> o64(64); std::vector<half> oh2(64, half(0.0f)); std::vector<bfloat16> ob2(64, bfloat16(0.0f));
  std::vector<float> of(64); bool obool[64];
  tilecc::host::launch(1, casts, x.data(), o8.data(), ou8.data(), oi.data(), ou.data(), o64.data(), oh2.data(), ob2.data(), of.data(), obool);
  half hs(1.0f);
  tilecc::host::launch(1, scalar_math, x.data(), out.data(), 2.0f, &hs);
  std::printf("%f %f\n", out[0], static_cast<float>(oh[0]));
  return 0;
}
