#include <tilecc/tile.hpp>
using namespace tilecc;
inline float twice(float v) { return 2.0f * v; }
inline float apply(float (*f)(float), float v) { return f(v); }
TILECC_KERNEL()
void k(float* y, float v) { store(y + arange<64>(), apply(twice, v)); }  // HERE: the function used as a value
