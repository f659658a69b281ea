#include "f01_brace_cast.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(512, 1.0f), y(512);
  tilecc::host::launch(2, brace_cast, x.data(), y.data(), 256);
  tilecc::host::launch(2, brace_init_locals, x.data(), y.data(), 256);
  return y[511] == 1.0f ? 0 : 1;
}
