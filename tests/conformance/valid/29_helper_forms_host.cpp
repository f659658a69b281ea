#include "29_helper_forms.tile.cpp"
#include <vector>
int main() {
  std::vector<half> x(1024, half(2.0f)); std::vector<float> f(128, 1.0f), y(256); std::vector<int> z(128);
  tilecc::host::launch(1, helper_forms, x.data(), f.data(), y.data(), z.data(), 3);
  return (y[0] == 2.0f && z[1] == 11) ? 0 : 1;
}
