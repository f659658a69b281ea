#include "11_kernels.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<float> x(10000, 1.0f), y(10000);
  tilecc::host::launch(2, audit::affine<float, 1024, 4>, x.data(), y.data(), 2.0f, 1.0f, 2000);
  std::vector<half> xh(1024, half(1.0f)), yh(1024, half(0.0f));
  tilecc::host::launch(2, audit::affine<half, 512, 2>, xh.data(), yh.data(), 2.0f, 1.0f, 1000);
  std::vector<int64_t> in(128, 1);
  tilecc::host::launch(1, params, true, 1, 2u, int64_t{3}, 0.5f, y.data(), in.data());
  tilecc::host::launch(1, warps<1, 1>, x.data(), y.data(), 3000);
  tilecc::host::launch(1, warps<32, 1>, x.data(), y.data(), 3000);
  std::vector<half> a(200 * 200, half(1.0f)), c(200 * 200, half(0.0f));
  tilecc::host::launch({2, 2}, gemm_ws<true>, a.data(), a.data(), c.data(), 200, 150, 100);
  std::vector<bfloat16> ab(200 * 200, bfloat16(1.0f)); std::vector<float> cf(200 * 200);
  tilecc::host::launch({2, 2}, gemm_ws_literal, ab.data(), ab.data(), cf.data(), 200, 150, 100);
  tilecc::host::launch(1, ns::in_namespace, y.data());
  std::printf("%f %f %f\n", static_cast<float>(yh[0]), static_cast<float>(c[0]), cf[0]);
  return 0;
}
