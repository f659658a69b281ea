#include "f05_layout_not_held.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(128, 1.0f), y(128);
  tilecc::host::launch(1, layout_split_lanes, x.data(), y.data());
  return y[127] == 2.0f ? 0 : 1;
}
