#include "08_scan.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<float> x(8192, 1.0f), c0(512), c1(512), p0(512), p1(512);
  tilecc::host::launch(1, scans_2d, x.data(), c0.data(), c1.data(), p0.data(), p1.data());
  std::vector<int> xi(2048, 1), a(512), b(512);
  tilecc::host::launch(1, scans_3d, xi.data(), a.data(), b.data());
  std::vector<half> h(256, half(1.0f)); std::vector<bfloat16> bf(256, bfloat16(1.0f)); std::vector<int8_t> i8(256, 1);
  std::vector<float> oh(256), ob(256), compact(256); std::vector<int> oi(256);
  tilecc::host::launch(1, scan_types, h.data(), bf.data(), i8.data(), x.data(), oh.data(), ob.data(), oi.data(), compact.data(), 200);
  std::vector<float> of(4096); std::vector<int> ooi(2048);
  tilecc::host::launch(1, combine_fns, x.data(), xi.data(), of.data(), ooi.data());
  std::vector<int8_t> oa(64); std::vector<half> ohh(65, half(0.0f));
  tilecc::host::launch(1, combine_narrow, i8.data(), h.data(), oa.data(), ohh.data());
  std::vector<int64_t> x64(1000, 1), y64(1000);
  tilecc::host::launch(1, prefix_i64, x64.data(), y64.data(), 1000);
  std::printf("%f %f %d %f %d %lld\n", c1[31], oh[199], oi[199], of[2048 + 63], ooi[1040], (long long)y64[999]);
  return (c1[31] == 32.0f && y64[999] == 1000 && ooi[1040] == 40320) ? 0 : 1;
}
