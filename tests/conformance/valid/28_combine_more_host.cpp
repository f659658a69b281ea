#include "28_combine_more.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(2048, 1.0f), of(32 + 2048); std::vector<int8_t> a(2048, 1), oa(2048);
  std::vector<bfloat16> b(2048, bfloat16(1.0f)), ob(32, bfloat16(0.0f)); std::vector<int> c(2048, 0), oc(2048 + 64);
  c[5 * 32 + 3] = 9;
  tilecc::host::launch(1, combine_more, x.data(), a.data(), b.data(), c.data(), of.data(), oa.data(), ob.data(), oc.data());
  return (oc[63 * 32 + 3] == 9 && oa[63 * 32] == 64 && oc[2048 + 5] == 9) ? 0 : 1;
}
