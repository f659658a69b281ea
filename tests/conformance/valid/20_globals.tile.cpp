// constexpr globals: a table indexed by constants and by an unrolled loop variable, a struct, a double, an int64.
#include <tilecc/tile.hpp>
using namespace tilecc;

constexpr float kTaps[3] = {0.25f, 0.5f, 0.25f};
struct cfg_t {
  float scale;
  int shift;
};
constexpr cfg_t kCfg{2.0f, 3};
constexpr double kPi = 3.14159265358979;
constexpr int64_t kBig = int64_t{1} << 40;

// A 3-tap filter; taps from a constexpr table with constant indices.
TILECC_KERNEL(num_warps = 4)
void filter3(const float* x, float* y, int n) {
  auto i = program_id(0) * 256 + arange<256>();
  auto l = load(x + i - 1, (i >= 1) & (i - 1 < n), 0.0f);
  auto c = load(x + i, i < n, 0.0f);
  auto r = load(x + i + 1, i + 1 < n, 0.0f);
  store(y + i, (kTaps[0] * l + kTaps[1] * c + kTaps[2] * r) * kCfg.scale + kPi, i < n);
}

// A loop of shifted loads, a constexpr int64 shifted by a struct member.
TILECC_KERNEL(num_warps = 4)
void filter_loop(const float* x, float* y, int n, int64_t* big) {
  auto i = program_id(0) * 256 + arange<256>();
  auto acc = zeros<float, 256>();
  for (int t = 0; t < 3; ++t) acc += load(x + i + (t - 1), (i + t - 1 >= 0) & (i + t - 1 < n), 0.0f);
  acc *= kTaps[1];  // (kTaps[t] with run-time t: rejected, "subscripts are not supported"; see notes)
  store(y + i, acc, i < n);
  store(big, kBig >> kCfg.shift);
}
