#include "27_carried_kinds.tile.cpp"
#include <vector>
#include <memory>
int main() {
  std::vector<float> x(128 * 8, 1.0f); std::unique_ptr<bool[]> any(new bool[128]); std::vector<int64_t> cnt(128);
  std::vector<half> h(128, half(0.0f));
  tilecc::host::launch(1, carried_types, x.data(), any.get(), cnt.data(), h.data(), 8);
  std::vector<float> y(256);
  tilecc::host::launch(2, bp_conditional, x.data(), y.data(), 4, 300, int64_t{400});
  std::vector<half> a(64 * 256, half(1.0f)), b(256 * 64, half(1.0f)); std::vector<float> c(64 * 64);
  tilecc::host::launch(1, nested_dot, a.data(), b.data(), c.data(), 64, 4, true);
  tilecc::host::launch(1, dot_early_exit, a.data(), b.data(), c.data(), 128, 40.0f);
  return (cnt[0] == 8 && c[0] == 64.0f) ? 0 : 1;
}
