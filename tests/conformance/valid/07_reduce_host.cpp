#include "07_reduce.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<float> x(32 * 64, 1.0f), s0(64), s1(32), mx0(64), mn1(32); std::vector<int> am0(64), an1(32);
  tilecc::host::launch(1, reduce_2d, x.data(), s0.data(), s1.data(), mx0.data(), mn1.data(), am0.data(), an1.data(), 30, 50);
  std::vector<int> xi(512, 1), o0(128), o1(64), o2(32);
  tilecc::host::launch(1, reduce_3d, xi.data(), o0.data(), o1.data(), o2.data());
  std::vector<half> h(512, half(1.0f)); std::vector<bfloat16> b(128, bfloat16(1.0f)); std::vector<int8_t> i8(128, 1);
  std::vector<uint8_t> u8(128, 1); bool bo[128]; for (bool& v : bo) v = true; std::vector<float> of(2); std::vector<int> oi(2);
  tilecc::host::launch(1, reduce_types, h.data(), b.data(), i8.data(), u8.data(), bo, of.data(), oi.data(), 100);
  std::vector<int64_t> a(512, 2), oa(16); std::vector<uint32_t> bb(512, 3), ob(16); std::vector<int> oc(16); std::vector<float> od(32);
  tilecc::host::launch(1, reduce_ints, a.data(), bb.data(), h.data(), oa.data(), ob.data(), oc.data(), od.data());
  std::vector<float> xr(3 * 1000, 2.0f), outr(3);
  tilecc::host::launch(3, row_max_loop, xr.data(), outr.data(), 1000, int64_t{1000});
  std::printf("%f %f %d %d %f %f\n", s0[0], s1[0], o0[0], oi[0], of[0], outr[2]);
  return (s0[0] == 30.0f && s1[0] == 50.0f && oi[0] == 300 && of[0] == 200.0f) ? 0 : 1;
}
