#include "20_globals.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<float> x(1000, 1.0f), y(1024); int64_t big = 0;
  tilecc::host::launch(4, filter3, x.data(), y.data(), 1000);
  tilecc::host::launch(4, filter_loop, x.data(), y.data(), 1000, &big);
  std::printf("%f %lld\n", y[5], (long long)big);
  return big == (int64_t{1} << 37) ? 0 : 1;
}
