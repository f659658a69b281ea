#include "02_int_elementwise.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  int n = 300;
  std::vector<int> a(n, 5), b(n, 3), out(n);
  tilecc::host::launch(tilecc::cdiv(n, 256), int_ops, a.data(), b.data(), out.data(), n);
  std::vector<int8_t> a8(200, -5), oa(200); std::vector<uint8_t> b8(200, 250), ob(200); std::vector<uint32_t> c(200, 7u), oc(200);
  tilecc::host::launch(2, narrow_ints, a8.data(), b8.data(), c.data(), oa.data(), ob.data(), oc.data(), 200);
  std::vector<int64_t> b64(128, 1), o64(128); std::vector<int> o32(128); std::vector<float> of(128); bool ob2[128];
  tilecc::host::launch(1, promotion, a8.data(), b64.data(), o64.data(), o32.data(), of.data(), ob2, int64_t{1} << 40);
  bool x[32] = {}, y[32] = {}, o[32]; int cnt = 0;
  tilecc::host::launch(1, bool_ops, x, y, o, &cnt);
  std::vector<float> xf(128, 1.0f), off(256);
  tilecc::host::launch(1, compound, xf.data(), o32.data(), off.data(), 100);
  std::printf("%d %d %lld %d\n", out[0], oa[0], (long long)o64[1], cnt);
  return 0;
}
