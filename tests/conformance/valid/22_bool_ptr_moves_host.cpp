#include "22_bool_ptr_moves.tile.cpp"
#include <vector>
#include <memory>
int main() {
  std::vector<float> x(2048 * 4, 1.0f), y(2048);
  std::unique_ptr<bool[]> t(new bool[2048]), r(new bool[2048]);
  tilecc::host::launch(1, bool_moves, x.data(), t.get(), r.get(), y.data(), 20, 50);
  tilecc::host::launch(1, store_trans_ptrs, x.data(), y.data());
  return y[0] == 1.0f ? 0 : 1;
}
