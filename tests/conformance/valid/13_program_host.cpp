#include "13_program.tile.cpp"
#include <vector>
int main() {
  std::vector<int> out(2 * 3 * 4 * 32);
  tilecc::host::launch({2, 3, 4}, grid3d, out.data(), 1000);
  std::vector<float> x(1000, 1.0f), y(1000);
  tilecc::host::launch(3, chunked, x.data(), y.data(), int64_t{1000}, 3);
  return (y[999] == 2.0f) ? 0 : 1;
}
