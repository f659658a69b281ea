#include "17_more_control.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<half> x(10 * 300, half(1.0f)); std::vector<float> out(2);
  tilecc::host::launch(2, helper_loops, x.data(), out.data(), int64_t{300}, 10, 250, true);
  std::vector<float> xf(128, 1.0f), y(128);
  tilecc::host::launch(1, one_branch, xf.data(), y.data(), 2);
  std::vector<float> buf(512, 3.0f);
  tilecc::host::launch(2, stencil_iter, buf.data(), 5);
  std::printf("%f %f %f\n", out[0], y[0], buf[100]);
  return (out[0] == 5000.0f) ? 0 : 1;
}
