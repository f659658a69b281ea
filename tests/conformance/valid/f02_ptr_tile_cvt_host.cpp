#include "f02_ptr_tile_cvt.tile.cpp"
#include <vector>
int main() {
  std::vector<int> x(10 * 100, 1); int y = 0;
  tilecc::host::launch(1, ptr_nested, x.data(), &y, 10, 100);
  std::vector<half> xh(2048 * 4, half(1.0f)); std::vector<float> yf(2048);
  tilecc::host::launch(1, carried_trans_ptrs, xh.data(), yf.data(), 4);
  std::vector<int> xi(20 * 100, 1); std::vector<int64_t> o(2);
  tilecc::host::launch(1, nested_return, xi.data(), o.data(), 20, 100, int64_t{550});
  return (o[1] == 5 && y == 1000 && yf[0] == 4.0f) ? 0 : 1;
}
