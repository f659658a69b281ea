#include <tilecc/tile.hpp>
using namespace tilecc;
struct op { virtual float apply(float v) const { return v; } };
struct twice : op { float apply(float v) const override { return 2.0f * v; } };
inline float run(const op& o, float v) { return o.apply(v); }
TILECC_KERNEL()
void k(float* y, float v) {
  twice t;  // HERE: the first construct outside the language reached (a local of class type)
  store(y + arange<64>(), run(t, v));
}
