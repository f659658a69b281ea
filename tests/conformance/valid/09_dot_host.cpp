#include "09_dot.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<half> ah(128 * 128, half(1.0f)); std::vector<bfloat16> ab(128 * 128, bfloat16(1.0f)); std::vector<float> af(128 * 128, 1.0f);
  std::vector<float> c(128 * 128);
  tilecc::host::launch(1, dot_once<half, 16, 16, 16>, ah.data(), ah.data(), c.data());
  tilecc::host::launch(1, dot_once<bfloat16, 16, 16, 16>, ab.data(), ab.data(), c.data());
  tilecc::host::launch(1, dot_once<float, 16, 16, 16>, af.data(), af.data(), c.data());
  tilecc::host::launch(1, dot_once<half, 32, 64, 16>, ah.data(), ah.data(), c.data());
  tilecc::host::launch(1, dot_once<bfloat16, 128, 16, 32>, ab.data(), ab.data(), c.data());
  tilecc::host::launch(1, dot_once<float, 64, 32, 128>, af.data(), af.data(), c.data());
  std::vector<int8_t> a8(100 * 100, 1); std::vector<int> ci(100 * 100);
  tilecc::host::launch({2, 2}, dot_int8, a8.data(), a8.data(), ci.data(), 100, 70, 50);
  tilecc::host::launch({2, 2}, dot_float<true>, af.data(), af.data(), c.data(), 100, 70, 50);
  tilecc::host::launch({2, 2}, dot_float<false>, af.data(), af.data(), c.data(), 100, 70, 50);
  std::vector<bfloat16> cb(32 * 32, bfloat16(0.0f));
  tilecc::host::launch(1, dot_trans<1>, ab.data(), ab.data(), cb.data(), 64);
  tilecc::host::launch(1, dot_trans<2>, ab.data(), ab.data(), cb.data(), 64);
  std::vector<half> oh(64 * 16, half(0.0f));
  tilecc::host::launch(1, dot_chain, ah.data(), ah.data(), ah.data(), oh.data());
  std::printf("%d %f %f %f\n", ci[0], c[0], static_cast<float>(cb[0]), static_cast<float>(oh[0]));
  return (ci[0] == 50 && c[0] == 50.0f) ? 0 : 1;
}
