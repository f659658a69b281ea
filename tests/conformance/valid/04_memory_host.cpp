#include "04_memory.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  int rows = 45, cols = 50; int64_t ld = 64;
  std::vector<float> x(64 * 64, 1.0f), pad(32, -3.0f), out(64 * 64);
  tilecc::host::launch(2, load_bcast, x.data(), pad.data(), out.data(), rows, cols, ld);
  std::vector<float> y(300); std::vector<half> h(256, half(0.0f));
  tilecc::host::launch(1, scalar_mem, x.data(), y.data(), h.data(), 100);
  std::vector<int8_t> a(64), oa(64); std::vector<uint8_t> b(64), ob(64); bool c[64] = {}, oc[64];
  std::vector<int64_t> d(64), od(64); std::vector<uint32_t> e(64), oe(64);
  tilecc::host::launch(1, typed_mem, a.data(), b.data(), c, d.data(), e.data(), oa.data(), ob.data(), oc, od.data(), oe.data(), 50);
  std::vector<float> f(256); std::vector<int> i32(16); std::vector<uint32_t> u32(128); std::vector<int64_t> i64(128);
  std::vector<half> hh(128, half(0.0f)); std::vector<bfloat16> bf(128, bfloat16(0.0f)); std::vector<int> old(256);
  tilecc::host::launch(1, atomics, f.data(), i32.data(), u32.data(), i64.data(), hh.data(), bf.data(), old.data(), 100);
  std::vector<float> xs(512), scratch(512), outr(512);
  for (int k = 0; k < 512; ++k) xs[k] = k;
  tilecc::host::launch(2, reverse_via_memory, xs.data(), scratch.data(), outr.data());
  std::vector<uint8_t> hx(5000, 3); std::vector<int> hist(256);
  tilecc::host::launch(3, histogram, hx.data(), hist.data(), 5000);
  std::printf("%f %d %d %f %d\n", out[0], i32[0], old[200], outr[0], hist[3]);
  return (outr[0] == 255.0f && hist[3] == 5000) ? 0 : 1;
}
