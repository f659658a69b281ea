#include <tilecc/tile.hpp>
using namespace tilecc;
struct op { virtual float apply(float v) const { return v; } };
struct twice : op { constexpr twice() {} float apply(float v) const override { return 2.0f * v; } };
constexpr twice g_twice{};
inline float run(const op& o, float v) { return o.apply(v); }
TILECC_KERNEL()
void k(float* y, float v) {
  store(y + arange<64>(), run(g_twice, v));  // HERE
}
