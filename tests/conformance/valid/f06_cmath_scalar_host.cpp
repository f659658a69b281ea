#include "f06_cmath_scalar.tile.cpp"
#include <vector>
int main() {
  std::vector<float> p = {1.0f, 2.0f}, out(128);
  tilecc::host::launch(1, cmath_scalars, p.data(), out.data());
  return 0;
}
