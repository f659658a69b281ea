#include "19_helper_return_in_loop.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(1000, 1.0f), y(128); int out = 5;
  tilecc::host::launch(1, find_block, x.data(), &out, 1000, 255.5f);
  tilecc::host::launch(1, find_tile, x.data(), y.data(), 4);
  return (out == 0 && y[0] == 1.0f) ? 0 : 1;
}
