#include "12_layouts.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(64 * 128, 1.0f), y(64 * 128);
  tilecc::host::launch(1, layout_spec_example, x.data(), y.data());
  tilecc::host::launch(1, layout_rank1, x.data(), y.data());
  std::vector<int> xi(32, 1), yi(32);
  tilecc::host::launch(1, layout_rank1_spatial, xi.data(), yi.data());
  tilecc::host::launch(1, layout_reduce, x.data(), y.data());
  std::vector<half> xh(4096, half(1.0f)), yh(4096, half(0.0f));
  tilecc::host::launch(1, layout_wgmma_like, xh.data(), yh.data());
  return 0;
}
