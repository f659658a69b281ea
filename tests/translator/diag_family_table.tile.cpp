// A tuning table that names a configuration the family does not have (it was tuned before the
// instantiation was removed): an error naming the table's line and the configurations there
// are, and no output.
// ARGS: -o out.cu --tuning-table %S/inputs/stale.tune
// EXIT: 1
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK>
TILECC_KERNEL(tune = (BLOCK), tune_key = (n), grid = cdiv(n, BLOCK))
void scale(const T* x, T* out, int n) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  store(out + offs, load(x + offs, offs < n) * T(2), offs < n);
}
template void scale<float, 256>(const float*, float*, int);
template void scale<float, 1024>(const float*, float*, int);

// DIAG: error: {{.*}}stale.tune:2: family scale_float has no configuration BLOCK=2048 (it has BLOCK=256, BLOCK=1024): the table is stale, re-tune
