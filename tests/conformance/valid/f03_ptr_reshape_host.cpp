#include "f03_ptr_reshape.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(1024, 2.0f), y(1024);
  tilecc::host::launch(1, ptr_reshape_const, x.data(), y.data());
  tilecc::host::launch(1, ptr_reshape_mut, x.data());
  return (y[1023] == 2.0f && x[5] == 1.0f) ? 0 : 1;
}
