#include "53_dropout.tile.cpp"
#include "audit2_common.hpp"
static uint32_t h(uint32_t x) {
  x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
  return x;
}
int main() {
  const int n = 50001;
  auto x = a2::randn<float>(n);
  std::vector<float> out(n + 2, NAN);
  const float p = 0.3f;
  const unsigned seed = 123456789u;
  tilecc::host::launch(cdiv(n, 1024), a2_seeded_dropout<1024>, x.data(), out.data(), n, p, seed);
  bool ok = true;
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    const float u = float(h(uint32_t(i) * 0x9e3779b9u + seed) >> 8) * (1.0f / 16777216.0f);
    const float ref = u > p ? x[i] / (1 - p) : 0.0f;
    kept += u > p;
    ok &= out[i] == ref;
  }
  a2::expect("dropout: same mask and values as a plain C++ hash", ok);
  a2::expect("dropout: keeps about 70%", kept > 0.68 * n && kept < 0.72 * n);
  a2::expect("dropout: tail untouched", std::isnan(out[n]));
  return a2::finish("53_dropout");
}
