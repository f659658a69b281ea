#include "25_scalar_mem_types.tile.cpp"
#include <vector>
int main() {
  int8_t a = -3; uint8_t b = 200; bool c = true; int64_t d = 5; uint32_t e = 7; half f(1.5f); bfloat16 g(2.5f);
  float out = 0; int8_t oa = 0; bool oc = true; half of(0.0f); bfloat16 og(0.0f);
  tilecc::host::launch(1, scalar_types, &a, &b, &c, &d, &e, &f, &g, &out, &oa, &oc, &of, &og);
  std::vector<half> h(129, half(0.0f)); std::vector<bfloat16> bb(128, bfloat16(0.0f)); std::vector<int64_t> l(5); std::vector<uint32_t> u(128);
  std::vector<float> o(128);
  tilecc::host::launch(1, atomic_old, h.data(), bb.data(), l.data(), u.data(), o.data(), true);
  return (out == 214.0f && u[0] == 1) ? 0 : 1;
}
