#include "24_kernel_templates.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(4096, 1.0f), y(4096);
  tilecc::host::launch(2, deduced<float>, x.data(), y.data(), 500);
  tilecc::host::launch(2, nontype<3>, x.data(), y.data());
  tilecc::host::launch(2, nontype<5, mode::negate>, x.data(), y.data());
  std::vector<half> a(100 * 100, half(1.0f)); std::vector<float> c(100 * 100);
  tilecc::host::launch({2, 2}, gemm_stages<1>, a.data(), a.data(), c.data(), 100, 90, 70);
  tilecc::host::launch({2, 2}, gemm_stages<5>, a.data(), a.data(), c.data(), 100, 90, 70);
  return c[0] == 70.0f ? 0 : 1;
}
