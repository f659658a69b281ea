// The runtime's swizzled shared-memory offsets (tilecc::swizzled in mma.cuh, written for the
// compiler to fold in unrolled loops) against the plain formula the translator's analyses use
// (ir::sharedOffset: the line index is the offset's bits 7 and up): host code, run without a GPU.
// Every row and byte of buffers of each swizzle and several row counts, whole and partial panels.
#include <tilecc/cuda/tilecc.cuh>

#include <cstdio>

namespace {
int failures = 0;

template <int S, int Rows>
void check() {
  int bad = 0;
  for (int row = 0; row < Rows; ++row)
    for (int byte = 0; byte < 4 * S; ++byte) {
      const long long off = 1LL * byte / S * Rows * S + 1LL * row * S + byte % S;
      const long long want = off ^ (((off >> 7) & (S / 16 - 1)) << 4);
      if (tilecc::swizzled<S, Rows>(row, byte) != want && bad++ == 0)
        std::printf("  swizzled<%d, %d>(%d, %d) = %d, expected %lld\n", S, Rows, row, byte, tilecc::swizzled<S, Rows>(row, byte), want);
    }
  std::printf("  swizzled<%d, %d> over %d rows x %d bytes: %s\n", S, Rows, Rows, 4 * S, bad ? "FAIL" : "ok");
  failures += bad != 0;
}
}  // namespace

int main() {
  check<128, 8>();
  check<128, 64>();
  check<128, 128>();
  check<128, 136>();
  check<128, 1>();
  check<64, 64>();
  check<64, 34>();
  check<64, 3>();
  check<64, 1>();
  check<32, 64>();
  check<32, 12>();
  check<32, 5>();
  std::printf(failures ? "FAILED\n" : "all swizzled offsets agree\n");
  return failures ? 1 : 0;
}
