// A braced functional cast of a run-time scalar (int64_t{row}) — the docs' own idiom
// (`int64_t{1} << 40`, `tile<int> += int64_t{...}`) — used in index arithmetic.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 4)
void brace_cast(const float* x, float* y, int ld) {
  const int64_t off = int64_t{program_id(0)} * ld;
  auto i = arange<256>();
  store(y + off + i, load(x + off + i));
}

// Direct-list-initialised locals (contract §5: local variables of scalar and tile type).
TILECC_KERNEL(num_warps = 4)
void brace_init_locals(const float* x, float* y, int ld) {
  const int64_t row{program_id(0)};
  tile<float, 256> acc{zeros<float, 256>()};
  acc += load(x + row * ld + arange<256>());
  store(y + row * ld + arange<256>(), acc);
}
