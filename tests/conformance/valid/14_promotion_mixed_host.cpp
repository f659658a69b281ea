#include "14_promotion_mixed.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<uint8_t> a(64, 200); std::vector<int8_t> b(64, -3); std::vector<uint32_t> c(64, 7); std::vector<int64_t> d(64, 5);
  std::vector<int> o32(64); std::vector<int64_t> o64(64), o64b(64); std::vector<uint32_t> ou(64);
  tilecc::host::launch(1, widths, a.data(), b.data(), c.data(), d.data(), o32.data(), o64.data(), o64b.data(), ou.data(), int64_t{1} << 33);
  std::vector<int> x(128, 6), oi(128); std::vector<float> f(128, 1.0f), of(128); bool ob[128];
  tilecc::host::launch(1, scalar_left, x.data(), f.data(), oi.data(), of.data(), ob);
  std::vector<half> h(128, half(1.0f)), oh(128, half(0.0f)); std::vector<bfloat16> bb(128, bfloat16(1.0f)), obb(128, bfloat16(0.0f));
  tilecc::host::launch(1, low_precision_mix, h.data(), bb.data(), oh.data(), obb.data(), ob);
  std::vector<int8_t> oa(64); std::vector<int64_t> obl(64); std::vector<uint32_t> oc(64);
  tilecc::host::launch(1, int_math, b.data(), d.data(), c.data(), oa.data(), obl.data(), oc.data());
  std::printf("%d %lld %lld %d %f\n", o32[1], (long long)o64[0], (long long)o64b[0], oi[0], of[0]);
  return 0;
}
