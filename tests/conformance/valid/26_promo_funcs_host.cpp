#include "26_promo_funcs.tile.cpp"
#include <vector>
int main() {
  std::vector<int> x(128, 2), o32(128); std::vector<int64_t> o64(256);
  tilecc::host::launch(1, promo_funcs, x.data(), o64.data(), o32.data(), int64_t{1} << 34, int64_t{3});
  return (o64[0] == 3 * (int64_t{1} << 34) + 2 && o32[0] == 17) ? 0 : 1;
}
