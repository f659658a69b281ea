#include "50_histogram.tile.cpp"
#include "audit2_common.hpp"
#include <algorithm>
int main() {
  {
    const int n = 100003, bins = 37;
    auto x = a2::randn<float>(n, 2.0f);
    x[5] = NAN, x[6] = 1e30f, x[7] = -1e30f;
    const float lo = -3.0f, hi = 3.0f, inv = float(bins) / (hi - lo);
    std::vector<int> counts(bins, 0), ref(bins, 0);
    tilecc::host::launch(cdiv(n, 1024), a2_histogram<1024>, x.data(), counts.data(), n, bins, lo, inv);
    for (int i = 0; i < n; ++i) {
      if (std::isnan(x[i])) continue;
      const float b = std::floor((x[i] - lo) * inv);
      int bi = b >= 2147483647.0f ? 2147483647 : b <= -2147483648.0f ? -2147483647 - 1 : int(b);
      ref[std::clamp(bi, 0, bins - 1)]++;
    }
    a2::expect("histogram fp32 100003 values, 37 bins, NaN/inf clamped", counts == ref);
  }
  {
    const int n = 777777;
    std::vector<uint8_t> p(n);
    for (auto& e : p) e = uint8_t(a2::irange(0, 255));
    std::vector<uint32_t> counts(256, 0), ref(256, 0);
    tilecc::host::launch(cdiv(n, 2048), a2_histogram_u8<2048>, p.data(), counts.data(), n);
    for (auto e : p) ref[e]++;
    a2::expect("histogram uint8 256 bins, 777777 pixels", counts == ref);
  }
  {
    const int n = 5000, nb = 13;
    std::vector<int> keys(n), fill(nb, 0), slot(n, -1);
    for (auto& e : keys) e = a2::irange(0, nb - 1);
    tilecc::host::launch(cdiv(n, 256), a2_bucket_slots<256>, keys.data(), fill.data(), slot.data(), n);
    std::vector<std::vector<int>> seen(nb);
    for (int i = 0; i < n; ++i) seen[keys[i]].push_back(slot[i]);
    bool ok = true;
    for (int b = 0; b < nb; ++b) {
      std::sort(seen[b].begin(), seen[b].end());
      for (int j = 0; j < int(seen[b].size()); ++j) ok &= seen[b][j] == j;
      ok &= fill[b] == int(seen[b].size());
    }
    a2::expect("atomic_add old values: slots 0..count-1 per bucket", ok);
  }
  return a2::finish("50_histogram");
}
